import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useDeleteWorkspace } from '../api/delete-workspace.ts';
import { useWorkspace, type WorkspaceDetail } from '../api/get-workspace.ts';
import { useUpdateWorkspace } from '../api/update-workspace.ts';
import { AddGroup, AddPartner } from '../components/add-participant.tsx';
import { ParticipantsPanel } from '../components/participants-panel.tsx';
import { PartnerInvitations } from '../components/partner-invitations.tsx';
import { WorkspaceFlows } from '../components/workspace-flows.tsx';
import { WorkspaceForm } from '../components/workspace-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { workspaceAttributes } from '../validation.ts';

registerCatalogue('workspaces', { ja, en });

const route = getRouteApi('/guarded/organizations/workspaces/$workspaceId');

/** What the route gives the page to show after the participants (other features' panels, see web/src/routes). */
export interface WorkspacePanels {
  /** The workspace's one-time users and their invitations. */
  oneTimeUsers?: (workspaceId: string) => ReactNode;
}

/** One workspace: its settings, participants (own groups and partners), deletion and its business flows. */
export function WorkspaceDetailPage({ panels = {} }: { panels?: WorkspacePanels }) {
  const { t } = useTranslation(['workspaces', 'common']);
  const { workspaceId } = route.useParams();
  const workspace = useWorkspace(workspaceId);
  const name = workspace.data?.attributes.name;

  useEffect(() => {
    document.title = `${name ?? t('detail.title')} | ${t('common:appName')}`;
  }, [t, name]);

  const reload = () => void workspace.refetch().then(() => toast.info(t('detail.reloaded')));

  return (
    <section aria-labelledby="workspace-detail-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/workspaces">{t('detail.back')}</Link>
      </p>
      <div className="screen-header">
        <h1 id="workspace-detail-title">{name ?? t('detail.title')}</h1>
        {workspace.data?.attributes.canManage && <DeleteWorkspace workspace={workspace.data} />}
      </div>
      <DetailStatus query={workspace} loading={t('detail.loading')} notFound={t('detail.notFound')} />
      {workspace.data && <WorkspaceBody workspace={workspace.data} onReload={reload} panels={panels} />}
    </section>
  );
}

function WorkspaceBody(props: { workspace: WorkspaceDetail; onReload: () => void; panels: WorkspacePanels }) {
  const { workspace, onReload, panels } = props;
  const { t } = useTranslation('workspaces');
  const update = useUpdateWorkspace();
  const a = workspace.attributes;
  const manage = a.canManage;
  return (
    <>
      <ul className="badges">
        <li className="badge badge-info">{t('detail.owner', { name: a.ownerOrganization.name })}</li>
        <li className="badge badge-muted">{a.mailNotification ? t('detail.mailOn') : t('detail.mailOff')}</li>
      </ul>
      {a.description && <p>{a.description}</p>}
      {manage ? (
        <section aria-labelledby="workspace-edit-title" className="panel">
          <h2 id="workspace-edit-title">{t('form.editTitle')}</h2>
          <WorkspaceForm
            key={a.lockVersion}
            idPrefix="workspace-edit"
            initial={{
              name: a.name,
              systemLinkId: a.systemLinkId ?? '',
              description: a.description ?? '',
              mailNotification: a.mailNotification,
              groupIds: [],
            }}
            submitLabel={t('form.save')}
            onReload={onReload}
            onSubmit={async (input) => {
              await update.mutateAsync({
                workspaceId: workspace.id,
                attributes: { ...workspaceAttributes(input), lockVersion: a.lockVersion },
              });
              toast.success(t('form.saved'));
            }}
          />
        </section>
      ) : (
        <p className="notice">{t('detail.readOnly')}</p>
      )}
      <ParticipantsPanel workspace={workspace} canManage={manage} onReload={onReload} />
      {manage && (
        <>
          <AddGroup workspace={workspace} onReload={onReload} />
          <AddPartner workspace={workspace} onReload={onReload} />
          <PartnerInvitations workspaceId={workspace.id} />
        </>
      )}
      {panels.oneTimeUsers?.(workspace.id)}
      <WorkspaceFlows workspaceId={workspace.id} canCreate={a.canEdit} partner={!a.isOwnerOrganization} />
    </>
  );
}

/** The delete button and its confirmation; a workspace with business flows shows WORKSPACE_HAS_BUSINESS_FLOWS. */
function DeleteWorkspace({ workspace }: { workspace: WorkspaceDetail }) {
  const { t } = useTranslation('workspaces');
  const navigate = useNavigate();
  const remove = useDeleteWorkspace();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const confirm = async () => {
    setFailure(null);
    try {
      await remove.mutateAsync(workspace.id);
      toast.success(t('detail.deleted'));
      await navigate({ to: '/organizations/workspaces' });
    } catch (error) {
      setFailure(error);
    } finally {
      setConfirming(false);
    }
  };
  return (
    <>
      <button type="button" className="button danger" onClick={() => setConfirming(true)}>
        {t('detail.delete')}
      </button>
      <ApiErrorNotice error={failure} />
      <ConfirmDialog
        open={confirming}
        title={t('detail.deleteTitle', { name: workspace.attributes.name })}
        confirmLabel={t('detail.delete')}
        danger
        pending={remove.isPending}
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('detail.deleteBody')}</p>
      </ConfirmDialog>
    </>
  );
}
