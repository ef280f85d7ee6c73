import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { AuthField } from '../components/auth-field.tsx';
import { MailSentNotice, SubmitButton } from '../components/page-parts.tsx';
import { useAuthForm } from '../form.ts';
import { validatePasswordResetRequest } from '../validation.ts';

/** Forgot password: mails a reset link when the user ID and address match; the answer is the same either way. */
export function ForgetPasswordPage() {
  const { t } = useTranslation('auth');
  const [loginId, setLoginId] = useState('');
  const [email, setEmail] = useState('');
  const request = useRequestPasswordReset();
  const fields = {
    loginId: { id: 'reset-request-login-id', label: t('fields.loginId') },
    email: { id: 'reset-request-email', label: t('fields.email') },
  };
  const form = useAuthForm(fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate(validatePasswordResetRequest({ loginId, email }))) return;
    request.mutate({ loginId, email }, { onError: form.fail });
  };

  return (
    <PublicFrame title={t('forgetPassword.title')}>
      {request.isSuccess ? (
        <MailSentNotice text={t('forgetPassword.sent')} />
      ) : (
        <>
          <p>{t('forgetPassword.intro')}</p>
          <form onSubmit={submit} noValidate>
            <ErrorSummary {...form.errorSummary} />
            <AuthField kind="loginId" {...form.field('loginId', loginId, setLoginId)} autoFocus />
            <AuthField kind="email" {...form.field('email', email, setEmail)} />
            <SubmitButton label={t('forgetPassword.submit')} pending={request.isPending} />
          </form>
        </>
      )}
      <p className="links">
        <Link to="/login">{t('backToLogin')}</Link>
        <Link to="/notice-user-id">{t('login.forgotUserId')}</Link>
      </p>
    </PublicFrame>
  );
}
