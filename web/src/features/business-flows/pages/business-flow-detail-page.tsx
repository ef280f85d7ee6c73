import { getRouteApi, Link } from '@tanstack/react-router';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useUpdateBusinessFlow } from '../api/change-business-flow.ts';
import { type BusinessFlowDetail, useBusinessFlow } from '../api/get-business-flow.ts';
import { useFlowProperties } from '../api/list-flow-properties.ts';
import { useOwnerSide } from '../api/workspace-side.ts';
import { DocumentsPanel } from '../components/documents-panel.tsx';
import { DraftActions } from '../components/draft-actions.tsx';
import { FlowActions } from '../components/flow-actions.tsx';
import { FlowFacts } from '../components/flow-facts.tsx';
import { FlowForm } from '../components/flow-form.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import { updateAttributes, valuesOf } from '../flow-form-state.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { editableDefinitions } from '../property-values.ts';

registerCatalogue('businessFlows', { ja, en });

const route = getRouteApi('/guarded/business-flows/$businessFlowId');

/** What the route gives the page to show below the documents (panels of other features, composed in web/src/routes). */
export interface FlowPanels {
  /** The flow's one-time user invitations; `canInvite` while the caller may edit the flow and it is not cancelled. */
  guests?: (flow: { businessFlowId: string; canInvite: boolean }) => ReactNode;
}

/** One business flow: status, facts, editable fields and properties, its documents and the status actions. */
export function BusinessFlowDetailPage({ panels = {} }: { panels?: FlowPanels }) {
  const { t } = useTranslation(['businessFlows', 'common']);
  const { businessFlowId } = route.useParams();
  const flow = useBusinessFlow(businessFlowId);
  const name = flow.data?.attributes.name;

  useEffect(() => {
    document.title = `${name ?? t('detail.title')} | ${t('common:appName')}`;
  }, [t, name]);

  const reload = () => void flow.refetch().then(() => toast.info(t('detail.reloaded')));

  return (
    <section aria-labelledby="flow-detail-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/business-flows">{t('detail.back')}</Link>
      </p>
      <div className="screen-header">
        <h1 id="flow-detail-title">{name ?? t('detail.title')}</h1>
        {flow.data && <StatusBadge status={flow.data.attributes.status} />}
      </div>
      <DetailStatus query={flow} loading={t('detail.loading')} notFound={t('detail.notFound')} />
      {flow.data && <FlowBody flow={flow.data} onReload={reload} panels={panels} />}
    </section>
  );
}

function FlowBody(props: { flow: BusinessFlowDetail; onReload: () => void; panels: FlowPanels }) {
  const { flow, onReload, panels } = props;
  const { t } = useTranslation('businessFlows');
  const a = flow.attributes;
  const side = useOwnerSide(a.workspace.id);
  const ownerSide = side.data ?? false;
  const cancelled = a.status === 'cancelled';
  const draft = a.status === 'draft';
  const canEdit = a.canEdit && !cancelled;
  return (
    <>
      {draft && <DraftActions flow={flow} canEdit={canEdit} onReload={onReload} />}
      {cancelled && (
        <div className="notice" role="status">
          <p>{t('detail.cancelledNotice')}</p>
          {a.cancelComment && <p>{t('detail.cancelReason', { comment: a.cancelComment })}</p>}
        </div>
      )}
      {side.data === false && (
        <p className="notice">
          <Link to="/outer-business-flows/$outerBusinessFlowId" params={{ outerBusinessFlowId: flow.id }}>
            {t('detail.partnerView')}
          </Link>
        </p>
      )}
      <FlowFacts flow={flow} />
      {canEdit ? (
        <EditFlow flow={flow} ownerSide={ownerSide} onReload={onReload} />
      ) : (
        !cancelled && <p className="notice">{t('detail.readOnly')}</p>
      )}
      <DocumentsPanel flow={flow} canUpload={canEdit} />
      {panels.guests?.({ businessFlowId: flow.id, canInvite: canEdit })}
      {canEdit && ownerSide && !draft && <FlowActions flow={flow} onReload={onReload} />}
    </>
  );
}

/** The edit form: fields for the owner side, only the client-editable property values for a partner. */
function EditFlow(props: { flow: BusinessFlowDetail; ownerSide: boolean; onReload: () => void }) {
  const { flow, onReload } = props;
  const { t } = useTranslation('businessFlows');
  const update = useUpdateBusinessFlow();
  const own = useFlowProperties();
  const a = flow.attributes;
  const definitions = editableDefinitions(a.properties, own.data ?? [], props.ownerSide);
  const stored = new Map(a.properties.map((p) => [p.propertyId, p]));
  const editable = (id: string) => (stored.has(id) ? stored.get(id)!.editable !== false : props.ownerSide);
  return (
    <section aria-labelledby="flow-edit-title" className="panel">
      <h2 id="flow-edit-title">{t('form.editTitle')}</h2>
      {own.isPending ? (
        <p className="muted">{t('detail.loading')}</p>
      ) : (
        <FlowForm
          key={a.lockVersion}
          idPrefix="flow-edit"
          definitions={definitions}
          initial={{
            source: 'scratch',
            templateId: '',
            workspaceId: a.workspace.id,
            name: a.name,
            systemLinkId: a.systemLinkId ?? '',
            comment: a.comment ?? '',
            autoComplete: a.autoComplete,
            values: valuesOf(a.properties),
          }}
          readOnlyProperty={(propertyId) => !editable(propertyId)}
          fieldsDisabled={!props.ownerSide}
          submitLabel={t('form.save')}
          onReload={onReload}
          onSubmit={async (input) => {
            await update.mutateAsync({
              businessFlowId: flow.id,
              attributes: updateAttributes(
                input,
                definitions.filter((d) => editable(d.id)),
                a.lockVersion,
              ),
            });
            toast.success(t('form.saved'));
          }}
        />
      )}
    </section>
  );
}
