import { type KeyboardEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { PlanGate } from '../../../components/plan-gate.tsx';
import { useCurrentUser } from '../../../session/current-user.ts';
import type { ReadingPositionsSlot } from '../components/document-template-form.tsx';
import { DocumentTemplatesPanel } from '../components/document-templates-panel.tsx';
import { FlowTemplatesPanel } from '../components/flow-templates-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('templates', { ja, en });

const TABS = ['documents', 'flows'] as const;
type Tab = (typeof TABS)[number];

/** What the route gives the page from other features: the AI-OCR reading-position editor of the template form. */
export interface TemplatesSlots {
  readingPositions?: ReadingPositionsSlot;
}

/**
 * /organizations/templates: document templates and business flow templates, one tab each; on a plan without
 * templates (free) the reason instead (which plan has them).
 */
export function TemplatesPage({ slots = {} }: { slots?: TemplatesSlots }) {
  const { t } = useTranslation(['templates', 'common']);
  const isAdmin = useCurrentUser().data?.attributes.isAdmin ?? false;
  const [tab, setTab] = useState<Tab>('documents');

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="templates-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="templates-title">{t('title')}</h1>
      </div>
      <p className="muted">{t('intro')}</p>
      <PlanGate feature="templates">
        <TemplateTabs tab={tab} setTab={setTab} isAdmin={isAdmin} slots={slots} />
      </PlanGate>
    </section>
  );
}

/** The two tabs and their panels (only on plans with templates). */
function TemplateTabs(props: { tab: Tab; setTab: (tab: Tab) => void; isAdmin: boolean; slots: TemplatesSlots }) {
  const { tab, setTab, isAdmin } = props;
  const { t } = useTranslation('templates');
  // Arrow keys move between the tabs, as the WAI-ARIA tabs pattern expects.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const next = TABS[(TABS.indexOf(tab) + 1) % TABS.length]!;
    setTab(next);
    document.getElementById(`templates-tab-${next}`)?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={t('tabs.label')} className="tabs" onKeyDown={onKeyDown}>
        {TABS.map((key) => (
          <button
            key={key}
            id={`templates-tab-${key}`}
            type="button"
            role="tab"
            aria-selected={tab === key}
            aria-controls={`templates-panel-${key}`}
            tabIndex={tab === key ? 0 : -1}
            className={tab === key ? 'button primary' : 'button'}
            onClick={() => setTab(key)}
          >
            {t(`tabs.${key}`)}
          </button>
        ))}
      </div>
      {/* No minimum width from its content: the list's wide table scrolls in its own frame on a narrow screen. */}
      <div
        id={`templates-panel-${tab}`}
        role="tabpanel"
        aria-labelledby={`templates-tab-${tab}`}
        style={{ minWidth: 0 }}
      >
        {tab === 'documents' ? (
          <DocumentTemplatesPanel isAdmin={isAdmin} readingPositions={props.slots.readingPositions} />
        ) : (
          <FlowTemplatesPanel isAdmin={isAdmin} />
        )}
      </div>
    </>
  );
}
