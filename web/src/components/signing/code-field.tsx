import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../api-error-notice.tsx';
import { japanDateTimeFormat } from '../date-format.ts';
import { FormField } from '../form-field.tsx';
import './signing-parts.css';

/** Where a requested code went (masked) and until when it is valid. */
export interface SentCode {
  destination: string;
  expiresAt: string;
}

/** The request that sends the code: the member's or the guest's signing-code operation, as a mutation's state. */
export interface CodeRequest {
  isPending: boolean;
  error: unknown;
  data: SentCode | undefined;
  send: () => void;
}

/**
 * The two-factor step: a button that sends the 6-digit code by the task's channel (showing where it went, masked,
 * and until when it is valid) and the input for it (numeric keyboard, the browser's one-time-code autofill).
 */
export function CodeField(props: {
  channel: 'sms' | 'email';
  request: CodeRequest;
  value: string;
  errors: string[];
  onChange: (code: string) => void;
}) {
  const { t, i18n } = useTranslation('signing');
  const { request } = props;
  const sent = request.data;
  return (
    <fieldset className="code-field">
      <legend>{t('code.title')}</legend>
      <p className="hint">{t(`code.intro.${props.channel}`)}</p>
      <div className="task-actions">
        <button type="button" className="button" disabled={request.isPending} onClick={request.send}>
          {request.isPending ? t('code.sending') : sent ? t('code.resend') : t('code.send')}
        </button>
      </div>
      <ApiErrorNotice error={request.error} />
      {sent && (
        <p role="status" className="success">
          {t('code.sent', {
            destination: sent.destination,
            time: japanDateTimeFormat(i18n.language).format(new Date(sent.expiresAt)),
          })}
        </p>
      )}
      <FormField
        id="sign-code"
        label={t('code.label')}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        value={props.value}
        errors={props.errors}
        onChange={(event) => props.onChange(event.target.value.replace(/\D/g, ''))}
      />
    </fieldset>
  );
}
