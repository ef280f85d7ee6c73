import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { useCurrentTerms } from '../../../api/current-terms.ts';
import { FormField } from '../../../components/form-field.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { consentAskedBy, TermsConsent, type TermsConsentKind } from '../../../components/terms-consent.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { sessionGuard } from '../../../session/session.ts';
import { completeSsoSignIn, forgetPendingSso, pendingSso, startSsoSignIn } from '../api/sso-sign-in.ts';
import type { SsoSearch } from '../search.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('sso', { ja, en });

/** A refusal with the server's message, and the ways on: start again (at the organization's code) or sign in. */
function Refusal({ error, orgCode, message }: { error?: unknown; orgCode?: string; message?: string }) {
  const { t } = useTranslation(['sso', 'errors']);
  const code = error instanceof ApiError ? error.code : 'UNKNOWN_ERROR';
  return (
    <>
      <div role="alert" className="form-error sso-refusal">
        <h2>{t('complete.refused')}</h2>
        <p>{message ?? t(`errors:${code}`)}</p>
      </div>
      <nav className="links">
        {orgCode ? (
          <Link to="/$orgCode/sso-login" params={{ orgCode }}>
            {t('complete.retry')}
          </Link>
        ) : (
          <Link to="/sso">{t('complete.retry')}</Link>
        )}
        <Link to="/login">{t('start.toLogin')}</Link>
      </nav>
    </>
  );
}

/**
 * /sso: asks for the organization code and goes on to /{orgCode}/sso-login. With the provider's answer in the query
 * (the home route hands `?code&state` on), completes the sign-in started in this tab: the terms consent when owed,
 * then the home screen; a refusal reads in a clear message.
 */
export function SsoPage() {
  const { t } = useTranslation('sso');
  const search = getRouteApi('/sso').useSearch();
  // The provider's answer as it arrived: the completion takes it out of the address bar at once.
  const [answer] = useState(search);
  if (answer.state) return <SsoCompletion search={answer} />;
  return (
    <PublicFrame title={t('start.title')}>
      <OrganizationCodeForm />
    </PublicFrame>
  );
}

function OrganizationCodeForm() {
  const { t } = useTranslation('sso');
  const navigate = useNavigate();
  const [orgCode, setOrgCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const code = orgCode.trim();
    if (!code) {
      setProblem(t('start.required'));
      return;
    }
    void navigate({ to: '/$orgCode/sso-login', params: { orgCode: code } });
  };
  return (
    <>
      <p>{t('start.intro')}</p>
      <form onSubmit={submit} noValidate>
        <FormField
          id="sso-org-code"
          label={t('start.orgCode')}
          value={orgCode}
          autoFocus
          autoComplete="organization"
          errors={problem ? [problem] : []}
          onChange={(event) => setOrgCode(event.target.value)}
        />
        <button type="submit" className="button primary">
          {t('start.submit')}
        </button>
      </form>
      <nav className="links">
        <Link to="/login">{t('start.toLogin')}</Link>
      </nav>
    </>
  );
}

function SsoCompletion({ search }: { search: SsoSearch }) {
  const { t } = useTranslation(['sso', 'errors']);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [pending] = useState(pendingSso);
  const [failure, setFailure] = useState<unknown>(null);
  const [termsAsked, setTermsAsked] = useState<TermsConsentKind | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [consentError, setConsentError] = useState<string[]>([]);
  const [working, setWorking] = useState(false);
  const terms = useCurrentTerms(Boolean(termsAsked));
  const started = useRef(false);

  const finish = async (acceptTermId?: string) => {
    if (!pending || !search.state) return;
    setWorking(true);
    try {
      const pair = await completeSsoSignIn({
        state: search.state,
        binding: pending.binding,
        ...(acceptTermId ? { acceptTermId } : { code: search.code, ...(search.iss ? { iss: search.iss } : {}) }),
      });
      forgetPendingSso();
      queryClient.clear();
      sessionGuard.signedIn(pair);
      void navigate({ to: '/', replace: true });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TERMS_NOT_AGREED') {
        setTermsAsked(consentAskedBy(error) ?? 'revised');
        if (acceptTermId) setConsentError([t('errors:TERMS_NOT_AGREED')]);
      } else {
        forgetPendingSso();
        setFailure(error);
      }
    } finally {
      setWorking(false);
    }
  };

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // The code works once: take it out of the address bar and history before anything else.
    window.history.replaceState(window.history.state, '', '/sso');
    if (pending && search.code && !search.error) void finish();
  }, []);

  const agree = (event: FormEvent) => {
    event.preventDefault();
    if (!agreed || !terms.data) {
      setConsentError([t('errors:TERMS_NOT_AGREED')]);
      return;
    }
    setConsentError([]);
    void finish(terms.data.id);
  };

  let body;
  if (!pending) body = <Refusal message={t('complete.noPending')} />;
  else if (search.error || !search.code)
    body = <Refusal orgCode={pending.orgCode} message={t('complete.providerRefused')} />;
  else if (failure) body = <Refusal error={failure} orgCode={pending.orgCode} />;
  else if (termsAsked)
    body = (
      <form onSubmit={agree} noValidate>
        <TermsConsent
          id="sso-terms"
          terms={terms}
          kind={termsAsked}
          agreed={agreed}
          onAgreedChange={setAgreed}
          errors={consentError}
        />
        <button type="submit" className="button primary" disabled={working}>
          {t('complete.agree')}
        </button>
      </form>
    );
  else
    body = (
      <p role="status" className="muted">
        {t('complete.working')}
      </p>
    );
  return <PublicFrame title={t('start.title')}>{body}</PublicFrame>;
}

/** /{orgCode}/sso-login: starts the organization's single sign-on and sends the browser to its provider. */
export function SsoLoginPage() {
  const { t } = useTranslation('sso');
  const { orgCode } = getRouteApi('/$orgCode/sso-login').useParams();
  const [failure, setFailure] = useState<unknown>(null);
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    startSsoSignIn(orgCode).then(
      (url) => window.location.assign(url),
      (error: unknown) => setFailure(error),
    );
  }, [orgCode]);
  return (
    <PublicFrame title={t('start.title')}>
      {failure ? (
        <Refusal error={failure} />
      ) : (
        <p role="status" className="muted">
          {t('redirect.going')}
        </p>
      )}
    </PublicFrame>
  );
}
