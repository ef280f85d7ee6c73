import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useChangePasswordAndSignIn } from '../api/change-password-and-sign-in.ts';
import { useCurrentTerms } from '../../../api/current-terms.ts';
import { useAuthForm } from '../form.ts';
import { safeRedirect } from '../redirect.ts';
import type { PasswordChangeSearch } from '../search.ts';
import { validatePasswordChange } from '../validation.ts';
import { AuthField } from './auth-field.tsx';
import { SubmitButton } from './page-parts.tsx';
import {
  consentAskedBy,
  consentKindOf,
  TermsConsent,
  type TermsConsentKind,
} from '../../../components/terms-consent.tsx';

/**
 * The first-password change (temporary password) and the expired-password change: the same request
 * (changePasswordAndSignIn) with their own wording. Terms consent appears when the server asks for it.
 */
export function PasswordChangeForm({
  variant,
  search,
}: {
  variant: 'initial' | 'expired';
  search: PasswordChangeSearch;
}) {
  const { t } = useTranslation(['auth', 'errors']);
  const navigate = useNavigate();
  const [loginId, setLoginId] = useState(search.loginId ?? '');
  const [currentPassword, setCurrentPassword] = useState('');
  const [password, setPassword] = useState('');
  const [passwordConfirmation, setPasswordConfirmation] = useState('');
  // Asked up front when the sign-in said the terms are owed (an invited user's first sign-in), else on refusal.
  const [termsAsked, setTermsAsked] = useState<TermsConsentKind | null>(consentKindOf(search.terms));
  const [agreed, setAgreed] = useState(false);
  const terms = useCurrentTerms(Boolean(termsAsked));
  const change = useChangePasswordAndSignIn();
  const texts = `passwordChange.${variant}` as const;
  const fields = {
    loginId: { id: 'change-login-id', label: t('fields.loginId') },
    currentPassword: { id: 'change-current-password', label: t(`${texts}.currentPassword`) },
    password: { id: 'change-password', label: t('fields.newPassword') },
    passwordConfirmation: { id: 'change-password-confirmation', label: t('fields.newPasswordConfirmation') },
    acceptTermId: { id: 'change-terms', label: t('terms.heading') },
  };
  const form = useAuthForm(fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { loginId, currentPassword, password, passwordConfirmation, agreed: termsAsked ? agreed : undefined };
    if (!form.validate(validatePasswordChange(input))) return;
    const acceptTermId = termsAsked && agreed ? terms.data?.id : undefined;
    change.mutate(
      { loginId, currentPassword, password, passwordConfirmation, ...(acceptTermId ? { acceptTermId } : {}) },
      {
        onSuccess: () => {
          toast.success(t('passwordChange.done'));
          void navigate({ href: safeRedirect(search.redirect), replace: true });
        },
        onError: (error) => {
          if (error instanceof ApiError && error.code === 'TERMS_NOT_AGREED') setTermsAsked(consentAskedBy(error));
          form.fail(error);
        },
      },
    );
  };

  return (
    <PublicFrame title={t(`${texts}.title`)}>
      <p>{t(`${texts}.intro`)}</p>
      <form onSubmit={submit} noValidate>
        <ErrorSummary {...form.errorSummary} />
        <AuthField kind="loginId" {...form.field('loginId', loginId, setLoginId)} />
        <AuthField
          kind="currentPassword"
          {...form.field('currentPassword', currentPassword, setCurrentPassword)}
          hint={t(`${texts}.currentPasswordHint`)}
          autoFocus
        />
        <AuthField kind="newPassword" {...form.field('password', password, setPassword)} />
        <AuthField
          kind="newPasswordConfirmation"
          {...form.field('passwordConfirmation', passwordConfirmation, setPasswordConfirmation)}
        />
        {termsAsked && (
          <TermsConsent {...form.consent('acceptTermId', agreed, setAgreed)} terms={terms} kind={termsAsked} />
        )}
        <SubmitButton
          label={t('passwordChange.submit')}
          pending={change.isPending}
          pendingLabel={t('passwordChange.sending')}
        />
      </form>
      <p className="links">
        <Link to="/login">{t('backToLogin')}</Link>
      </p>
    </PublicFrame>
  );
}
