import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
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
        <div className="success" role="status">
          <p>{t('forgetPassword.sent')}</p>
          <p>{t('mailHelp')}</p>
        </div>
      ) : (
        <>
          <p>{t('forgetPassword.intro')}</p>
          <form onSubmit={submit} noValidate>
            <ErrorSummary
              title={t('form.summaryTitle')}
              message={form.alert}
              items={form.summary}
              focusKey={form.attempt}
            />
            <FormField
              id={fields.loginId.id}
              label={fields.loginId.label}
              name="loginId"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              autoFocus
              value={loginId}
              onChange={(event) => {
                setLoginId(event.target.value);
                form.touched('loginId');
              }}
              errors={form.errorsOf('loginId')}
            />
            <FormField
              id={fields.email.id}
              label={fields.email.label}
              name="email"
              type="email"
              autoComplete="email"
              spellCheck={false}
              required
              value={email}
              onChange={(event) => {
                setEmail(event.target.value);
                form.touched('email');
              }}
              errors={form.errorsOf('email')}
            />
            <button type="submit" className="button primary" disabled={request.isPending}>
              {request.isPending ? t('sending') : t('forgetPassword.submit')}
            </button>
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
