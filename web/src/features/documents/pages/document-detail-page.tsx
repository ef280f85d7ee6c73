import { getRouteApi, Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { useCancelDocument } from '../api/cancel-document.ts';
import { useDocumentProperties, useOneTimeUsers, useRoles, useWorkspace } from '../api/editor-choices.ts';
import { type DocumentDetail, useDocument } from '../api/get-document.ts';
import { AttributesForm } from '../components/attributes-form.tsx';
import { CompletedDownloads } from '../components/completed-downloads.tsx';
import { DocumentPreview } from '../components/document-preview.tsx';
import { HistoryPanel } from '../components/history-panel.tsx';
import type { PropertyField } from '../components/property-inputs.tsx';
import { ReasonDialog } from '../../../components/reason-dialog.tsx';
import { ReuploadPanel } from '../components/reupload-panel.tsx';
import { TaskActions } from '../components/task-actions.tsx';
import { type DocumentTask, TasksPanel } from '../components/tasks-panel.tsx';
import { VersionsPanel } from '../components/versions-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { participantChoices } from '../participants.ts';
import '../documents.css';

registerCatalogue('documents', { ja, en });

const route = getRouteApi('/guarded/organizations/documents/$documentId');

type Attributes = DocumentDetail['attributes'];

/** What the route gives the page to show with the downloads (panels of other features, composed in web/src/routes). */
export interface DocumentPanels {
  /** Where the document went in the organization's Box; `completed` once every task is done. */
  box?: (document: { documentId: string; completed: boolean }) => ReactNode;
  /** The property values AI-OCR read from the document, for the viewer to decide on. */
  ocr?: (document: {
    documentId: string;
    title: string;
    canEdit: boolean;
    ownerSide: boolean;
    version: Attributes['currentVersion'];
  }) => ReactNode;
}

/** Stored values and (for the owner organization) the other document-scope definitions, as inputs. */
function usePropertyFields(attributes: Attributes | undefined, ownerSide: boolean): PropertyField[] {
  const definitions = useDocumentProperties(ownerSide);
  const stored = attributes?.properties ?? [];
  const byId = new Map((definitions.data?.data ?? []).map((p) => [p.id, p]));
  const fields: PropertyField[] = stored.map((value) => ({
    propertyId: value.propertyId,
    name: value.name,
    inputType: value.inputType,
    editable: Boolean(value.editable),
    options:
      byId.get(value.propertyId)?.attributes.options.map((o) => ({ id: o.id, label: o.label })) ??
      (value.labelName ? [{ id: value.value, label: value.labelName }] : []),
    lockVersion: byId.get(value.propertyId)?.attributes.lockVersion,
    optionsVersion: byId.get(value.propertyId)?.attributes.optionsVersion,
  }));
  const missing = (definitions.data?.data ?? []).filter((p) => !stored.some((v) => v.propertyId === p.id));
  return [
    ...fields,
    ...missing.map((p) => ({
      propertyId: p.id,
      name: p.attributes.name ?? '',
      inputType: p.attributes.inputType ?? 20,
      editable: Boolean(attributes?.canEdit),
      options: p.attributes.options.map((o) => ({ id: o.id, label: o.label })),
      lockVersion: p.attributes.lockVersion,
      optionsVersion: p.attributes.optionsVersion,
    })),
  ];
}

function Summary({ attributes }: { attributes: Attributes }) {
  const { t } = useTranslation('documents');
  return (
    <dl className="facts">
      <div>
        <dt>{t('detail.status')}</dt>
        <dd>
          <span
            className={`badge badge-${attributes.status === 'completed' ? 'ok' : attributes.status === 'cancelled' ? 'danger' : 'info'}`}
          >
            {t(`statuses.${attributes.status}`)}
          </span>
        </dd>
      </div>
      <div>
        <dt>{t('detail.type')}</dt>
        <dd>{t(`types.${attributes.documentType}`)}</dd>
      </div>
      <div>
        <dt>{t('detail.fileName')}</dt>
        <dd>{attributes.currentVersion.fileName}</dd>
      </div>
      {attributes.currentOrder !== null && (
        <div>
          <dt>{t('detail.currentOrder')}</dt>
          <dd>{attributes.currentOrder}</dd>
        </div>
      )}
      {attributes.cancelComment && (
        <div>
          <dt>{t('detail.cancelComment')}</dt>
          <dd>{attributes.cancelComment}</dd>
        </div>
      )}
    </dl>
  );
}

/** The properties a viewer without edit rights sees (partners: only those public to clients). */
function ReadOnlyProperties({ attributes }: { attributes: Attributes }) {
  const { t } = useTranslation('documents');
  return (
    <section aria-labelledby="document-properties-title" className="panel">
      <h2 id="document-properties-title">{t('properties.title')}</h2>
      {attributes.properties.length === 0 ? (
        <p className="muted">{t('properties.none')}</p>
      ) : (
        <dl className="facts">
          {attributes.properties.map((property) => (
            <div key={property.propertyId}>
              <dt>{property.name}</dt>
              <dd>{property.labelName ?? property.value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

/** Re-upload is offered while remanded, after a malicious or failed scan, or before any task is done. */
function mayReupload(attributes: Attributes, tasks: DocumentTask[]): boolean {
  if (!attributes.canEdit || attributes.status === 'cancelled' || attributes.status === 'completed') return false;
  const scan = attributes.currentVersion.scanStatus;
  return (
    attributes.status === 'remanded' ||
    scan === 'malicious' ||
    scan === 'failed' ||
    !tasks.some((task) => task.status === 'completed')
  );
}

function Loaded({
  documentId,
  detail,
  onReload,
  panels,
}: {
  documentId: string;
  detail: DocumentDetail;
  onReload: () => void;
  panels: DocumentPanels;
}) {
  const { t } = useTranslation('documents');
  const me = useCurrentUser().data?.attributes;
  const attributes = detail.attributes;
  const tasks = attributes.tasks as DocumentTask[];
  const workspace = useWorkspace(attributes.workspace.id);
  const ownerSide = Boolean(me && workspace.data?.attributes.ownerOrganization.id === me.organization.id);
  const guests = useOneTimeUsers(attributes.workspace.id, ownerSide && attributes.canEdit);
  const choices = participantChoices(workspace.data, t, guests.data);
  const roles = useRoles(ownerSide && attributes.canEdit);
  const fields = usePropertyFields(attributes, ownerSide);
  const cancel = useCancelDocument();
  const [cancelling, setCancelling] = useState(false);
  const mine = tasks.find((task) => (task as { executableByMe?: boolean }).executableByMe);
  const running = attributes.status === 'in_progress' || attributes.status === 'remanded';
  const locked = tasks.some((task) => task.status === 'completed') || !running;

  return (
    <>
      <Summary attributes={attributes} />
      {attributes.status === 'completed' && <CompletedDownloads documentId={documentId} />}
      {panels.box?.({ documentId, completed: attributes.status === 'completed' })}
      <div className="split-layout document-layout">
        <section aria-labelledby="document-preview-title" className="panel">
          <h2 id="document-preview-title">{t('detail.previewTitle')}</h2>
          <DocumentPreview
            documentId={documentId}
            version={attributes.currentVersion.version}
            title={attributes.name}
            scanPending={attributes.currentVersion.scanStatus === 'pending'}
          />
        </section>
        <div>
          {mine && <TaskActions task={mine} documentId={documentId} documentName={attributes.name} />}
          <TasksPanel
            documentId={documentId}
            lockVersion={attributes.lockVersion}
            tasks={tasks}
            editable={attributes.canEdit && ownerSide}
            locked={locked}
            assignees={choices.assignees}
            roles={(roles.data?.data ?? []).map((role) => ({ value: role.id, label: role.attributes.name }))}
            context={{
              ownOrganizationId: me?.organization.id ?? '',
              ownerOrganizationId: choices.ownerOrganizationId ?? '',
              groupOrganization: (groupId) =>
                choices.groupIds.has(groupId) ? (choices.ownerOrganizationId ?? undefined) : undefined,
            }}
            onReload={onReload}
          />
        </div>
      </div>
      {panels.ocr?.({
        documentId,
        title: attributes.name,
        canEdit: Boolean(attributes.canEdit),
        ownerSide,
        version: attributes.currentVersion,
      })}
      {!attributes.canEdit && <ReadOnlyProperties attributes={attributes} />}
      {attributes.canEdit && (
        <AttributesForm
          key={attributes.lockVersion}
          documentId={documentId}
          canRename={Boolean(attributes.canRename)}
          fields={fields}
          onReload={onReload}
          initial={{
            name: attributes.name,
            documentType: attributes.documentType,
            systemLinkId: attributes.systemLinkId ?? null,
            lockVersion: attributes.lockVersion,
            properties: Object.fromEntries(attributes.properties.map((p) => [p.propertyId, p.value])),
          }}
        />
      )}
      {mayReupload(attributes, tasks) && <ReuploadPanel documentId={documentId} lockVersion={attributes.lockVersion} />}
      <VersionsPanel documentId={documentId} versions={attributes.versions} />
      <p className="links">
        <Link to="/organizations/documents/$documentId/signatures" params={{ documentId }}>
          {t('detail.signatures')}
        </Link>
      </p>
      <HistoryPanel events={attributes.events} />
      {attributes.canEdit && attributes.status !== 'cancelled' && attributes.status !== 'completed' && (
        <section aria-labelledby="document-cancel-title" className="panel">
          <h2 id="document-cancel-title">{t('cancel.title')}</h2>
          <p>{t('cancel.body')}</p>
          <button type="button" className="button danger" onClick={() => setCancelling(true)}>
            {t('cancel.open')}
          </button>
        </section>
      )}
      <ReasonDialog
        open={cancelling}
        title={t('cancel.title')}
        reasonLabel={t('cancel.reason')}
        requiredText={t('actions.reasonRequired')}
        cancelLabel={t('dataList:cancel')}
        confirmLabel={t('cancel.confirm')}
        danger
        onClose={() => setCancelling(false)}
        onConfirm={async (reason) => {
          await cancel.mutateAsync({ documentId, reason, lockVersion: attributes.lockVersion });
          toast.success(t('cancel.done'));
        }}
      >
        <p>{t('cancel.body')}</p>
      </ReasonDialog>
    </>
  );
}

/** One document: preview, the caller's task, the task editor, attributes, versions, history and cancel. */
export function DocumentDetailPage({ panels = {} }: { panels?: DocumentPanels }) {
  const { t } = useTranslation(['documents', 'common']);
  const { documentId } = route.useParams();
  const document_ = useDocument(documentId);
  const detail = document_.data;

  useEffect(() => {
    document.title = `${detail?.attributes.name ?? t('detail.title')} | ${t('common:appName')}`;
  }, [t, detail?.attributes.name]);

  const reload = () => void document_.refetch().then(() => toast.info(t('detail.reloaded')));
  return (
    <section aria-labelledby="document-detail-title" className="admin-screen">
      {detail && (
        <p className="back-link">
          <Link to="/business-flows/$businessFlowId" params={{ businessFlowId: detail.attributes.businessFlow.id }}>
            {t('detail.back')}: {detail.attributes.businessFlow.name}
          </Link>
        </p>
      )}
      <h1 id="document-detail-title">{detail?.attributes.name ?? t('detail.title')}</h1>
      <DetailStatus query={document_} loading={t('detail.loading')} notFound={t('detail.notFound')} />
      {detail && <Loaded documentId={documentId} detail={detail} onReload={reload} panels={panels} />}
    </section>
  );
}
