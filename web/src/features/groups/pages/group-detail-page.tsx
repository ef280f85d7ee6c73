import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { DetailStatus } from '../../../components/detail-status.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useDeleteGroup } from '../api/delete-group.ts';
import { useGroup } from '../api/get-group.ts';
import { useMyRights } from '../api/my-rights.ts';
import { useUpdateGroup } from '../api/update-group.ts';
import { AddMember } from '../components/add-member.tsx';
import { GroupForm } from '../components/group-form.tsx';
import { MembersPanel } from '../components/members-panel.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { groupAttributes } from '../validation.ts';

registerCatalogue('groups', { ja, en });

const route = getRouteApi('/guarded/organizations/settings/groups/$groupId');

/** One group: rename and delete (administrators), and its members. */
export function GroupDetailPage() {
  const { t } = useTranslation(['groups', 'common']);
  const { groupId } = route.useParams();
  const navigate = useNavigate();
  const group = useGroup(groupId);
  const rights = useMyRights();
  const update = useUpdateGroup();
  const remove = useDeleteGroup();
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const name = group.data?.attributes.name;

  useEffect(() => {
    document.title = `${name ?? t('detail.title')} | ${t('common:appName')}`;
  }, [t, name]);

  const reload = () => void group.refetch().then(() => toast.info(t('detail.reloaded')));
  const deleteGroup = async () => {
    setFailure(null);
    try {
      await remove.mutateAsync(groupId);
      toast.success(t('detail.deleted'));
      await navigate({ to: '/organizations/settings/groups' });
    } catch (error) {
      setFailure(error);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <section aria-labelledby="group-detail-title" className="admin-screen">
      <p className="back-link">
        <Link to="/organizations/settings/groups">{t('detail.back')}</Link>
      </p>
      <div className="screen-header">
        <h1 id="group-detail-title">{name ?? t('detail.title')}</h1>
        {rights.isAdmin && group.data && (
          <button type="button" className="button danger" onClick={() => setConfirming(true)}>
            {t('detail.delete')}
          </button>
        )}
      </div>
      <DetailStatus query={group} loading={t('detail.loading')} notFound={t('detail.notFound')} />
      <ApiErrorNotice error={failure} onReload={reload} />
      {group.data && (
        <>
          <p className="muted">
            {t('detail.counts', {
              members: group.data.attributes.memberCount,
              admins: group.data.attributes.groupAdminCount,
            })}
          </p>
          {rights.isAdmin ? (
            <section aria-labelledby="group-rename-title" className="panel">
              <h2 id="group-rename-title">{t('form.renameTitle')}</h2>
              <GroupForm
                key={group.data.attributes.lockVersion}
                idPrefix="group-edit"
                initial={{ name: group.data.attributes.name, systemLinkId: group.data.attributes.systemLinkId ?? '' }}
                submitLabel={t('form.save')}
                onReload={reload}
                onSubmit={async (input) => {
                  const lockVersion = group.data!.attributes.lockVersion;
                  await update.mutateAsync({ groupId, attributes: { ...groupAttributes(input), lockVersion } });
                  toast.success(t('form.saved'));
                }}
              />
            </section>
          ) : (
            <p className="notice">{t('detail.readOnly')}</p>
          )}
          {rights.managesMembersOf(groupId) && <AddMember groupId={groupId} canGrantAdmin={rights.isAdmin} />}
          <MembersPanel groupId={groupId} canManage={rights.managesMembersOf(groupId)} canGrantAdmin={rights.isAdmin} />
        </>
      )}
      <ConfirmDialog
        open={confirming}
        title={t('detail.deleteTitle', { name: name ?? '' })}
        confirmLabel={t('detail.delete')}
        danger
        pending={remove.isPending}
        onConfirm={() => void deleteGroup()}
        onCancel={() => setConfirming(false)}
      >
        <p>{t('detail.deleteBody')}</p>
      </ConfirmDialog>
    </section>
  );
}
