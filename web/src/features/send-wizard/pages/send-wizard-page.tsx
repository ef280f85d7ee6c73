import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { DocumentsStep } from '../components/documents-step.tsx';
import { FieldsStep } from '../components/fields-step.tsx';
import { RecipientsStep } from '../components/recipients-step.tsx';
import { ReviewStep } from '../components/review-step.tsx';
import { SentScreen } from '../components/sent-screen.tsx';
import { Stepper } from '../components/stepper.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import type { WizardStep } from '../search.ts';
import { type Draft, loadDraft } from '../wizard-draft.ts';
import '../send-wizard.css';

registerCatalogue('sendWizard', { ja, en });

const route = getRouteApi('/guarded/organizations/business-flows/new');

/**
 * The send wizard: 書類 → 宛先 → 署名欄 → 確認 → 送信. The flow is a draft from the first step on: every step saves
 * it (documents, then the task plan with the fields), nothing is mailed until 送信, and `?draft=` reopens it.
 */
export function SendWizardPage() {
  const { t } = useTranslation(['sendWizard', 'common']);
  const search = route.useSearch();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft | null>(null);
  const stored = useQuery({
    queryKey: ['business-flows', 'draft', search.draft],
    queryFn: () => loadDraft(search.draft ?? ''),
    enabled: Boolean(search.draft) && draft?.flowId !== search.draft,
    // Read afresh each time the wizard opens a draft: edits made since live on the server, not in this cache.
    gcTime: 0,
  });
  useEffect(() => {
    if (stored.data && draft?.flowId !== stored.data.flowId) setDraft(stored.data);
  }, [stored.data, draft?.flowId]);

  const step: WizardStep = search.step ?? (search.draft ? 'recipients' : 'documents');
  useEffect(() => {
    document.title = `${t(`steps.${step}`)} - ${t('title')} | ${t('common:appName')}`;
  }, [t, step]);

  const go = (next: WizardStep, flowId = draft?.flowId) =>
    void navigate({ to: '/organizations/business-flows/new', search: { draft: flowId, step: next } });

  if (search.sent) return <SentScreen businessFlowId={search.sent} />;
  if (search.draft && !draft) {
    return (
      <section className="send-wizard" aria-labelledby="wizard-title">
        <h1 id="wizard-title">{t('title')}</h1>
        {stored.isError ? (
          <ApiErrorNotice error={stored.error} />
        ) : (
          <p role="status" className="muted">
            {t('loading')}
          </p>
        )}
      </section>
    );
  }
  const update = (patch: Partial<Draft>) => setDraft((current) => (current ? { ...current, ...patch } : current));

  return (
    <section className="send-wizard" aria-labelledby="wizard-title" data-step={step}>
      <div className="wizard-head">
        <h1 id="wizard-title">{t('title')}</h1>
        {draft && <span className="badge draft-badge">{t('draftBadge')}</span>}
      </div>
      <Stepper current={step} enabled={Boolean(draft)} onGo={(next) => go(next)} />
      {step === 'documents' && (
        <DocumentsStep
          draft={draft}
          initialWorkspaceId={search.workspaceId}
          onSaved={(saved) => {
            setDraft(saved);
            go(saved.recipients.length > 0 ? 'fields' : 'recipients', saved.flowId);
          }}
        />
      )}
      {draft && step === 'recipients' && (
        <RecipientsStep draft={draft} onChange={update} onBack={() => go('documents')} onSaved={() => go('fields')} />
      )}
      {draft && step === 'fields' && (
        <FieldsStep draft={draft} onChange={update} onBack={() => go('recipients')} onSaved={() => go('review')} />
      )}
      {draft && step === 'review' && (
        <ReviewStep
          draft={draft}
          onBack={() => go('fields')}
          onSent={() => void navigate({ to: '/organizations/business-flows/new', search: { sent: draft.flowId } })}
        />
      )}
    </section>
  );
}
