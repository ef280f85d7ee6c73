import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { FormField } from '../../../components/form-field.tsx';
import { sixDigits } from '../access-code.ts';
import { type Credential, useSendOneTimeAuthCode, useSignInOneTime } from '../api/guest-auth.ts';

/** Where the code went and until when it holds, as the send answer (or the QR page) gave it. */
export interface SentAuthCode {
  maskedEmail: string;
  expiresAt?: string;
}

/**
 * The second step of /onetime/auth: the 6-digit code from the mail (numeric keyboard, the browser's one-time-code
 * autofill), and a new code on request. On success the guest's tokens are stored and `onSignedIn` decides where next.
 */
export function CodeStep(props: {
  credential: Credential;
  sent: SentAuthCode;
  onSignedIn: (businessFlowId: string) => void;
}) {
  const { t, i18n } = useTranslation('oneTime');
  const signIn = useSignInOneTime();
  const resend = useSendOneTimeAuthCode();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const sent = resend.data ?? props.sent;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (code.length !== 6) {
      setMissing(true);
      document.getElementById('onetime-code')?.focus();
      return;
    }
    try {
      const signedIn = await signIn.mutateAsync({ credential: props.credential, code });
      props.onSignedIn(signedIn.businessFlowId);
    } catch {
      // Shown by the notice below.
    }
  };

  return (
    <form className="onetime-code-step" noValidate onSubmit={(event) => void submit(event)}>
      <p role="status" className="success">
        {sent.expiresAt
          ? t('auth.sent', {
              email: sent.maskedEmail,
              time: japanDateTimeFormat(i18n.language).format(new Date(sent.expiresAt)),
            })
          : t('auth.sentByQr', { email: sent.maskedEmail })}
      </p>
      <FormField
        id="onetime-code"
        className="onetime-code"
        label={t('auth.code')}
        hint={t('auth.codeHint')}
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        value={code}
        errors={missing ? [t('auth.codeRequired')] : []}
        onChange={(event) => {
          setCode(sixDigits(event.target.value));
          setMissing(false);
        }}
      />
      <ApiErrorNotice error={signIn.error ?? resend.error} />
      <button type="submit" className="button primary" disabled={signIn.isPending}>
        {signIn.isPending ? t('auth.submitting') : t('auth.submit')}
      </button>
      <p className="hint">{t('auth.noMail')}</p>
      <button
        type="button"
        className="button"
        disabled={resend.isPending}
        onClick={() => {
          signIn.reset();
          resend.mutate(props.credential);
        }}
      >
        {resend.isPending ? t('auth.sending') : t('auth.resend')}
      </button>
    </form>
  );
}
