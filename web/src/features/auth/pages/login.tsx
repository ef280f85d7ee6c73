import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useCurrentTerms } from '../../../api/current-terms.ts';
import { useSignIn } from '../api/sign-in.ts';
import { AuthField } from '../components/auth-field.tsx';
import { AccountSwitch, SubmitButton } from '../components/page-parts.tsx';
import { consentAskedBy, TermsConsent, type TermsConsentKind } from '../../../components/terms-consent.tsx';
import { useAuthForm } from '../form.ts';
import { afterSignInWithInvitation } from '../redirect.ts';
import { consentProblems, validateSignIn } from '../validation.ts';

const route = getRouteApi('/login');

/**
 * Sign-in. A temporary or expired password leads to its change screen (with the user ID and the target, never the
 * password); terms not yet agreed are shown here to agree and retry; any other refusal reads in the alert.
 */
export function LoginPage() {
  const { t } = useTranslation(['auth', 'errors']);
  const search = route.useSearch();
  const navigate = useNavigate();
  const [loginId, setLoginId] = useState(search.loginId ?? '');
  const [password, setPassword] = useState('');
  const [termsAsked, setTermsAsked] = useState<TermsConsentKind | null>(null);
  // The organization's code when it signs in by single sign-on only (SSO_REQUIRED): a link straight to it.
  const [ssoCode, setSsoCode] = useState<string | null>(null);
  const [agreed, setAgreed] = useState(false);
  const terms = useCurrentTerms(Boolean(termsAsked));
  const signIn = useSignIn();
  const target = afterSignInWithInvitation(search);
  const fields = {
    loginId: { id: 'login-id', label: t('fields.loginId') },
    password: { id: 'login-password', label: t('fields.password') },
    acceptTermId: { id: 'login-terms', label: t('terms.heading') },
  };
  const form = useAuthForm(fields);

  const refused = (error: unknown) => {
    const code = error instanceof ApiError ? error.code : null;
    if (code === 'INITIAL_PASSWORD_CHANGE_REQUIRED' || code === 'PASSWORD_EXPIRED') {
      const to = code === 'PASSWORD_EXPIRED' ? '/expired-password-change' : '/initial-password-change';
      const owed = consentAskedBy(error);
      void navigate({ to, search: { loginId, redirect: target, ...(owed ? { terms: owed } : {}) } });
      return;
    }
    if (code === 'TERMS_NOT_AGREED') setTermsAsked(consentAskedBy(error));
    const orgCode = error instanceof ApiError ? error.errors[0]?.meta?.params?.orgCode : undefined;
    setSsoCode(code === 'SSO_REQUIRED' && typeof orgCode === 'string' ? orgCode : null);
    form.fail(error);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problems = validateSignIn({ loginId, password });
    if (termsAsked && !agreed) problems.acceptTermId = consentProblems(agreed);
    if (!form.validate(problems)) return;
    const acceptTermId = termsAsked && agreed ? terms.data?.id : undefined;
    signIn.mutate(
      { loginId, password, ...(acceptTermId ? { acceptTermId } : {}) },
      { onSuccess: () => void navigate({ href: target, replace: true }), onError: refused },
    );
  };

  return (
    <PublicFrame title={t('login.title')}>
      {search.timeout === '1' && (
        <p className="notice" role="status">
          {t('errors:SESSION_TIMEOUT')}
        </p>
      )}
      {search.invitationToken && <p className="notice">{t('login.invitation')}</p>}
      <form onSubmit={submit} noValidate>
        <ErrorSummary {...form.errorSummary} />
        {ssoCode && (
          <p className="notice">
            <Link to="/$orgCode/sso-login" params={{ orgCode: ssoCode }}>
              {t('login.ssoOfOrganization')}
            </Link>
          </p>
        )}
        <AuthField kind="loginId" {...form.field('loginId', loginId, setLoginId)} autoFocus={!search.loginId} />
        <AuthField
          kind="currentPassword"
          {...form.field('password', password, setPassword)}
          autoFocus={Boolean(search.loginId)}
        />
        {termsAsked && (
          <TermsConsent {...form.consent('acceptTermId', agreed, setAgreed)} terms={terms} kind={termsAsked} />
        )}
        <SubmitButton label={t('login.submit')} pending={signIn.isPending} pendingLabel={t('login.sending')} />
      </form>
      <nav className="links" aria-label={t('login.helpLinks')}>
        <Link to="/notice-user-id">{t('login.forgotUserId')}</Link>
        <Link to="/forget-password">{t('login.forgotPassword')}</Link>
        <Link to="/sso">{t('login.sso')}</Link>
      </nav>
      <AccountSwitch to="/signup" invitationToken={search.invitationToken} redirect={search.redirect} />
    </PublicFrame>
  );
}
