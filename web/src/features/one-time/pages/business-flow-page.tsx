import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import enSigning from '../../../i18n/en/signing.json';
import jaSigning from '../../../i18n/ja/signing.json';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { forgetOneTimeSession, signOutOneTime } from '../api/guest-auth.ts';
import { useGuestFlow } from '../api/guest-flow.ts';
import { useOneTimeMe } from '../api/guest-me.ts';
import { DocumentWork } from '../components/document-work.tsx';
import { GuestFrame } from '../components/guest-frame.tsx';
import { GuestSessionGate } from '../components/guest-session.tsx';
import { LinkProblemPage, linkProblemOf } from '../components/link-problem.tsx';
import { type GuestDocument, runnableTask } from '../flow-model.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import '../one-time.css';

registerCatalogue('oneTime', { ja, en });
registerCatalogue('signing', { ja: jaSigning, en: enSigning });

const route = getRouteApi('/onetime/business-flows/$businessFlowId');

function DocumentCard(props: { document: GuestDocument; open: boolean; only: boolean; onToggle: () => void }) {
  const { t } = useTranslation('oneTime');
  const doc = props.document;
  const task = runnableTask(doc);
  const headingId = `onetime-document-${doc.id}`;
  return (
    <section className="panel onetime-document-card" aria-labelledby={headingId}>
      <div className="onetime-document-head">
        <h2 id={headingId}>{doc.name}</h2>
        <span className={`badge status-${doc.status}`}>
          {t(`flow.statuses.${doc.status}`, { defaultValue: doc.status })}
        </span>
      </div>
      {task && !props.open && (
        <p className="onetime-next">
          {t('flow.taskLine', {
            order: task.order,
            type: t(`flow.taskTypes.${task.type}`),
            status: t(`flow.taskStatuses.${task.status}`, { defaultValue: task.status }),
          })}
        </p>
      )}
      {/* A flow with one document shows it open, with nothing to go back to. */}
      {!props.only && (
        <button
          type="button"
          className={props.open ? 'button' : 'button primary'}
          aria-expanded={props.open}
          aria-controls={`${headingId}-work`}
          onClick={props.onToggle}
        >
          {props.open ? t('flow.close') : t('flow.open')}
        </button>
      )}
      <div id={`${headingId}-work`}>{props.open && <DocumentWork document={doc} />}</div>
    </section>
  );
}

function FlowScreen({ businessFlowId }: { businessFlowId: string }) {
  const { t } = useTranslation('oneTime');
  const navigate = useNavigate();
  const me = useOneTimeMe();
  const flow = useGuestFlow(businessFlowId);
  const [opened, setOpened] = useState<string | null>(null);
  const documents = flow.data?.documents ?? [];
  const guest = me.data?.attributes;

  useEffect(() => {
    // Terms not yet agreed (a link opened straight to the flow): the terms first.
    if (guest && !guest.termsAccepted) void navigate({ to: '/onetime/terms', replace: true });
  }, [guest, navigate]);

  // One document: open at once.
  const only = documents.length === 1 ? documents[0]!.id : null;
  const openId = opened ?? only;

  const problem = linkProblemOf(flow.error) ?? linkProblemOf(me.error);
  if (problem) return <LinkProblemPage problem={problem} />;

  const signOut = async () => {
    // Whatever the server says, the tab forgets the guest once the flow screen has gone.
    await signOutOneTime().catch(() => undefined);
    await navigate({ to: '/onetime/auth', search: { signedOut: '1' } });
    forgetOneTimeSession();
  };

  const title = flow.data?.name ?? t('flow.loading');
  return (
    <GuestFrame
      title={title}
      guest={guest ? { name: guest.name ?? '', email: guest.email ?? '' } : null}
      onSignOut={() => void signOut()}
    >
      <h1 id="page-title">{title}</h1>
      {flow.data && (
        <dl className="facts onetime-flow-facts">
          <div>
            <dt>{t('flow.owner')}</dt>
            <dd>{flow.data.organizationName}</dd>
          </div>
          <div>
            <dt>{t('flow.status')}</dt>
            <dd>{t(`flow.flowStatuses.${flow.data.status}`, { defaultValue: flow.data.status })}</dd>
          </div>
        </dl>
      )}
      <ApiErrorNotice error={flow.error} />
      {flow.data && (
        <>
          <h2 className="onetime-list-title">{t('flow.documentsTitle')}</h2>
          {documents.length === 0 && <p className="notice">{t('flow.noDocuments')}</p>}
          {documents.map((doc) => (
            <DocumentCard
              key={doc.id}
              document={doc}
              open={openId === doc.id}
              only={only !== null}
              onToggle={() => setOpened(openId === doc.id ? '' : doc.id)}
            />
          ))}
        </>
      )}
    </GuestFrame>
  );
}

/** /onetime/business-flows/{businessFlowId}: the guest's documents and tasks in their one flow. */
export function OneTimeBusinessFlowPage() {
  const { businessFlowId } = route.useParams();
  return (
    <GuestSessionGate>
      <FlowScreen businessFlowId={businessFlowId} />
    </GuestSessionGate>
  );
}
