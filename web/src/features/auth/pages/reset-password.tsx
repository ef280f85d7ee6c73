import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useResetPassword } from '../api/reset-password.ts';
import { verifyPasswordResetTokenQueryOptions } from '../api/verify-password-reset-token.ts';
import { AuthField } from '../components/auth-field.tsx';
import { SubmitButton } from '../components/page-parts.tsx';
import { useAuthForm } from '../form.ts';
import { validatePasswordReset } from '../validation.ts';

const route = getRouteApi('/forget-password/reset');

const invalidLink = () => new ApiError(401, [], 'PASSWORD_RESET_LINK_INVALID');

/**
 * The page a reset mail links to (?token=…): a new password, then sign in again. The link is checked as the page
 * opens; a missing, used or expired one is the route's error page (401 link invalid), reached by throwing.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const { token } = route.useSearch();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');
  const [linkError, setLinkError] = useState<ApiError | null>(null);
  const reset = useResetPassword();
  const fields = {
    password: { id: 'reset-password', label: t('fields.newPassword') },
    passwordConfirmation: { id: 'reset-password-confirmation', label: t('fields.newPasswordConfirmation') },
  };
  const form = useAuthForm(fields);
  const check = useQuery({ ...verifyPasswordResetTokenQueryOptions(token ?? ''), enabled: Boolean(token) });

  if (linkError) throw linkError;
  if (!token) throw invalidLink();
  if (check.error instanceof ApiError && (check.error.status === 401 || check.error.fieldErrors().token)) {
    throw invalidLink();
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!form.validate(validatePasswordReset({ password, passwordConfirmation }))) return;
    reset.mutate(
      { token, password, passwordConfirmation },
      {
        onSuccess: () => {
          toast.success(t('resetPassword.done'));
          void navigate({ to: '/login', replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 401) setLinkError(error);
          // A token the contract itself refuses (too long, say) is a broken link too.
          else if (error instanceof ApiError && error.fieldErrors().token) setLinkError(invalidLink());
          else form.fail(error);
        },
      },
    );
  };

  if (check.isPending) {
    return (
      <PublicFrame title={t('resetPassword.title')}>
        <p role="status">{t('resetPassword.checking')}</p>
      </PublicFrame>
    );
  }

  return (
    <PublicFrame title={t('resetPassword.title')}>
      <p>{t('resetPassword.intro')}</p>
      <form onSubmit={submit} noValidate>
        <ErrorSummary {...form.errorSummary} />
        <AuthField kind="newPassword" {...form.field('password', password, setPassword)} autoFocus />
        <AuthField
          kind="newPasswordConfirmation"
          {...form.field('passwordConfirmation', passwordConfirmation, setPasswordConfirmation)}
        />
        <SubmitButton label={t('resetPassword.submit')} pending={reset.isPending} />
      </form>
      <p className="links">
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </PublicFrame>
  );
}
