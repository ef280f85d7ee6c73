import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PagedTable, RowAction, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateFormat } from '../../../components/date-format.ts';
import { type GroupMember, type MemberSort, useGroupMembers } from '../api/list-group-members.ts';
import { useRemoveGroupMember } from '../api/remove-group-member.ts';
import { useUpdateGroupMember } from '../api/update-group-member.ts';

/**
 * The members of a group: search, sort, paging; remove a member (those who manage the group's members) and grant
 * or remove the group administrator right (organization administrators). Every refusal shows its message.
 */
export function MembersPanel(props: { groupId: string; canManage: boolean; canGrantAdmin: boolean }) {
  const { t, i18n } = useTranslation('groups');
  const { groupId } = props;
  const list = useListParams<MemberSort>('loginId');
  const members = useGroupMembers(groupId, list.params);
  const update = useUpdateGroupMember();
  const remove = useRemoveGroupMember();
  const [removing, setRemoving] = useState<GroupMember | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const date = japanDateFormat(i18n.language);
  const rows = members.data?.data ?? [];
  const pending = update.isPending || remove.isPending;
  const showActions = props.canManage || props.canGrantAdmin;

  const toggleAdmin = async (member: GroupMember) => {
    setFailure(null);
    const isGroupAdmin = !member.attributes.isGroupAdmin;
    try {
      await update.mutateAsync({ groupId, userId: member.id, isGroupAdmin });
      toast.success(t(isGroupAdmin ? 'members.granted' : 'members.revoked', { name: member.attributes.name }));
    } catch (error) {
      setFailure(error);
    }
  };
  const confirmRemove = async () => {
    if (!removing) return;
    setFailure(null);
    try {
      await remove.mutateAsync({ groupId, userId: removing.id });
      toast.success(t('members.removed', { name: removing.attributes.name }));
    } catch (error) {
      setFailure(error);
    } finally {
      setRemoving(null);
    }
  };
  const sortable = sortHeaders(list);

  return (
    <section aria-labelledby="members-title" className="panel">
      <h2 id="members-title">{t('members.heading')}</h2>
      <SearchBox id="members-search" label={t('members.search')} value={list.params.q} onSearch={list.setSearch} />
      <ApiErrorNotice error={failure} />
      <PagedTable
        idPrefix="members"
        list={list}
        query={members}
        rowCount={rows.length}
        emptyText={t('members.empty')}
        searching={list.params.q !== ''}
        tableLabel={t('members.tableLabel')}
        header={
          <>
            {sortable('loginId', t('members.columns.loginId'))}
            {sortable('name', t('members.columns.name'))}
            <th scope="col">{t('members.columns.email')}</th>
            <th scope="col">{t('members.columns.status')}</th>
            {sortable('isGroupAdmin', t('members.columns.isGroupAdmin'))}
            {sortable('addedAt', t('members.columns.addedAt'))}
            {showActions && <th scope="col">{t('members.columns.actions')}</th>}
          </>
        }
      >
        {rows.map((member) => {
          const a = member.attributes;
          return (
            <tr key={member.id}>
              <td>{a.loginId}</td>
              <td>{a.name}</td>
              <td className="cell-wrap">{a.email}</td>
              <td>{t(`members.status.${a.status}`)}</td>
              <td>
                {a.isGroupAdmin ? (
                  <span className="badge badge-info">{t('members.groupAdmin')}</span>
                ) : (
                  <span className="muted">{t('members.member')}</span>
                )}
              </td>
              <td>{date.format(new Date(a.addedAt))}</td>
              {showActions && (
                <td>
                  <div className="row-actions">
                    {props.canGrantAdmin && (
                      <RowAction
                        label={t(a.isGroupAdmin ? 'members.revokeLabel' : 'members.grantLabel', {
                          name: a.name,
                        })}
                        disabled={pending}
                        onClick={() => void toggleAdmin(member)}
                      >
                        {t(a.isGroupAdmin ? 'members.revoke' : 'members.grant')}
                      </RowAction>
                    )}
                    {props.canManage && (
                      <RowAction
                        label={t('members.removeLabel', { name: a.name })}
                        danger
                        disabled={pending}
                        onClick={() => setRemoving(member)}
                      >
                        {t('members.remove')}
                      </RowAction>
                    )}
                  </div>
                </td>
              )}
            </tr>
          );
        })}
      </PagedTable>
      <ConfirmDialog
        open={removing !== null}
        title={removing ? t('members.removeTitle', { name: removing.attributes.name }) : ''}
        confirmLabel={t('members.remove')}
        danger
        pending={remove.isPending}
        onConfirm={() => void confirmRemove()}
        onCancel={() => setRemoving(null)}
      >
        <p>{t('members.removeBody')}</p>
      </ConfirmDialog>
    </section>
  );
}
