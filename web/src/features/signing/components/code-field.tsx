import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { FormField } from '../../../components/form-field.tsx';
import { useRequestSigningCode } from '../api/request-signing-code.ts';

/**
 * The two-factor step: a button that sends the 6-digit code by the task's channel (showing where it went, masked,
 * and until when it is valid) and the input for it.
 */
export function CodeField(props: {
  taskId: string;
  channel: 'sms' | 'email';
  value: string;
  errors: string[];
  onChange: (code: string) => void;
}) {
  const { t, i18n } = useTranslation('signing');
  const request = useRequestSigningCode();
  const sent = request.data;
  return (
    <fieldset className="code-field">
      <legend>{t('code.title')}</legend>
      <p className="hint">{t(`code.intro.${props.channel}`)}</p>
      <div className="task-actions">
        <button
          type="button"
          className="button"
          disabled={request.isPending}
          onClick={() => request.mutate(props.taskId)}
        >
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
