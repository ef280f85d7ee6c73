import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentTerms } from '../../../api/current-terms.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { PublicFrame } from '../../../components/public-frame.tsx';
import { TermsConsent } from '../../../components/terms-consent.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useAcceptOneTimeTerms, useOneTimeMe } from '../api/guest-me.ts';
import { GuestSessionGate } from '../components/guest-session.tsx';
import { LinkProblemPage, linkProblemOf } from '../components/link-problem.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../one-time.css';

registerCatalogue('oneTime', { ja, en });

function TermsStep() {
  const { t } = useTranslation('oneTime');
  const navigate = useNavigate();
  const me = useOneTimeMe();
  const terms = useCurrentTerms();
  const accept = useAcceptOneTimeTerms();
  const [agreed, setAgreed] = useState(false);
  const [missing, setMissing] = useState(false);
  const attributes = me.data?.attributes;
  const businessFlowId = attributes?.businessFlowId;

  useEffect(() => {
    // Already agreed (a reload after consent): on to the flow.
    if (attributes?.termsAccepted && businessFlowId) {
      void navigate({ to: '/onetime/business-flows/$businessFlowId', params: { businessFlowId }, replace: true });
    }
  }, [attributes?.termsAccepted, businessFlowId, navigate]);

  const problem = linkProblemOf(me.error);
  if (problem) return <LinkProblemPage problem={problem} />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!agreed) {
      setMissing(true);
      document.getElementById('onetime-terms')?.focus();
      return;
    }
    if (!attributes?.currentTerm || !businessFlowId) return;
    try {
      await accept.mutateAsync(attributes.currentTerm.id);
      await navigate({ to: '/onetime/business-flows/$businessFlowId', params: { businessFlowId } });
    } catch {
      // Shown by the notice below.
    }
  };

  return (
    <PublicFrame title={t('terms.title')} wide>
      <p>{t('terms.intro')}</p>
      {me.isPending && (
        <p role="status" className="muted">
          {t('terms.loading')}
        </p>
      )}
      <ApiErrorNotice error={me.error} />
      <form noValidate onSubmit={(event) => void submit(event)}>
        <TermsConsent
          id="onetime-terms"
          terms={terms}
          agreed={agreed}
          onAgreedChange={(value) => {
            setAgreed(value);
            setMissing(false);
          }}
          errors={missing ? [t('terms.agreeRequired')] : []}
        />
        <ApiErrorNotice error={accept.error} />
        <button type="submit" className="button primary" disabled={accept.isPending || !attributes}>
          {accept.isPending ? t('terms.submitting') : t('terms.submit')}
        </button>
      </form>
    </PublicFrame>
  );
}

/** /onetime/terms: the terms of use in force, and the guest's consent, before their flow opens. */
export function OneTimeTermsPage() {
  return (
    <GuestSessionGate>
      <TermsStep />
    </GuestSessionGate>
  );
}
