import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { ErrorSummary } from '../../../components/error-summary.tsx';
import { FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { useCurrentTerms } from '../api/get-current-terms.ts';
import { useSignIn } from '../api/sign-in.ts';
import { TermsConsent } from '../components/terms-consent.tsx';
import { useAuthForm } from '../form.ts';
import { afterSignIn } from '../redirect.ts';
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
  const [termsAsked, setTermsAsked] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const terms = useCurrentTerms(termsAsked);
  const signIn = useSignIn();
  const target = afterSignIn(search);
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
      void navigate({ to, search: { loginId, redirect: target } });
      return;
    }
    if (code === 'TERMS_NOT_AGREED') setTermsAsked(true);
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
          value={loginId}
          autoFocus={!search.loginId}
          onChange={(event) => {
            setLoginId(event.target.value);
            form.touched('loginId');
          }}
          errors={form.errorsOf('loginId')}
        />
        <FormField
          id={fields.password.id}
          label={fields.password.label}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          autoFocus={Boolean(search.loginId)}
          onChange={(event) => {
            setPassword(event.target.value);
            form.touched('password');
          }}
          errors={form.errorsOf('password')}
        />
        {termsAsked && (
          <TermsConsent
            id={fields.acceptTermId.id}
            terms={terms}
            agreed={agreed}
            intro={t('terms.askedAtSignIn')}
            onAgreedChange={(value) => {
              setAgreed(value);
              form.touched('acceptTermId');
            }}
            errors={form.errorsOf('acceptTermId')}
          />
        )}
        <button type="submit" className="button primary" disabled={signIn.isPending}>
          {signIn.isPending ? t('login.sending') : t('login.submit')}
        </button>
      </form>
      <nav className="links" aria-label={t('login.helpLinks')}>
        <Link to="/notice-user-id">{t('login.forgotUserId')}</Link>
        <Link to="/forget-password">{t('login.forgotPassword')}</Link>
      </nav>
      <p className="signup-prompt">
        {t('login.noAccount')}{' '}
        <Link to="/signup" search={{ invitationToken: search.invitationToken }}>
          {t('login.signUp')}
        </Link>
      </p>
    </PublicFrame>
  );
}
