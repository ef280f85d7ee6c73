import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { PagedTable, RowAction, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useEditAndDelete } from '../../../components/edit-and-delete.ts';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCreateRole } from '../api/create-role.ts';
import { useDeleteRole } from '../api/delete-role.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { type Role, type RoleSort, useRoles } from '../api/list-roles.ts';
import { useUpdateRole } from '../api/update-role.ts';
import { RoleForm } from '../components/role-form.tsx';
import { PermissionSummary } from '../components/task-matrix.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { NO_PERMISSIONS, roleAttributes } from '../validation.ts';

registerCatalogue('roles', { ja, en });

/** Roles: list for everyone; administrators create, edit (the task matrix) and delete them here. */
export function RolesPage() {
  const { t, i18n } = useTranslation(['roles', 'common']);
  const list = useListParams<RoleSort>('name');
  const roles = useRoles(list.params);
  const isAdmin = useCurrentUser().data?.attributes.isAdmin ?? false;
  const create = useCreateRole();
  const update = useUpdateRole();
  const remove = useDeleteRole();
  const { editing, setEditing, deleting, setDeleting, failure, confirmDelete } = useEditAndDelete<Role>(
    remove.mutateAsync,
    t('delete.done'),
  );
  const date = japanDateFormat(i18n.language);
  const rows = roles.data?.data ?? [];
  const meta = roles.data?.meta;
  const edited = rows.find((role) => role.id === editing);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);
  const sortable = sortHeaders(list);

  return (
    <section aria-labelledby="roles-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="roles-title">{t('title')}</h1>
        {isAdmin && editing === null && (
          <button type="button" className="button primary" onClick={() => setEditing('new')}>
            {t('list.create')}
          </button>
        )}
      </div>
      <p className="muted">{t('intro')}</p>
      {isAdmin && editing === 'new' && (
        <section aria-labelledby="role-form-title" className="panel">
          <h2 id="role-form-title">{t('form.createTitle')}</h2>
          <RoleForm
            initial={{ name: '', systemLinkId: '', taskPermissions: NO_PERMISSIONS }}
            submitLabel={t('form.create')}
            onCancel={() => setEditing(null)}
            onSubmit={async (input) => {
              const role = await create.mutateAsync(roleAttributes(input));
              toast.success(t('form.created', { name: role.attributes.name }));
              setEditing(null);
            }}
          />
        </section>
      )}
      {isAdmin && edited && (
        <section aria-labelledby="role-form-title" className="panel">
          <h2 id="role-form-title">{t('form.editTitle', { name: edited.attributes.name })}</h2>
          <RoleForm
            key={`${edited.id}:${edited.attributes.lockVersion}`}
            initial={{
              name: edited.attributes.name,
              systemLinkId: edited.attributes.systemLinkId ?? '',
              taskPermissions: edited.attributes.taskPermissions,
            }}
            submitLabel={t('form.save')}
            onCancel={() => setEditing(null)}
            onReload={() => void roles.refetch().then(() => toast.info(t('form.reloaded')))}
            onSubmit={async (input) => {
              const attributes = { ...roleAttributes(input), lockVersion: edited.attributes.lockVersion };
              await update.mutateAsync({ roleId: edited.id, attributes });
              toast.success(t('form.saved'));
              setEditing(null);
            }}
          />
        </section>
      )}
      <SearchBox id="roles-search" label={t('list.search')} value={list.params.q} onSearch={list.setSearch} />
      {meta && isAdmin && list.params.q === '' && (
        <p className="muted">{t('list.usage', { count: meta.total, max: meta.maxRoles })}</p>
      )}
      <ApiErrorNotice error={failure} />
      <PagedTable
        idPrefix="roles"
        list={list}
        query={roles}
        rowCount={rows.length}
        emptyText={t('list.empty')}
        searching={list.params.q !== ''}
        tableLabel={t('list.tableLabel')}
        header={
          <>
            {sortable('name', t('list.columns.name'))}
            <th scope="col">{t('list.columns.systemLinkId')}</th>
            <th scope="col">{t('list.columns.permissions')}</th>
            <th scope="col">{t('list.columns.userCount')}</th>
            {sortable('createdAt', t('list.columns.createdAt'))}
            {isAdmin && <th scope="col">{t('list.columns.actions')}</th>}
          </>
        }
      >
        {rows.map((role) => (
          <tr key={role.id}>
            <td>{role.attributes.name}</td>
            <td>{role.attributes.systemLinkId ?? '—'}</td>
            <td>
              <PermissionSummary value={role.attributes.taskPermissions} />
            </td>
            <td className="cell-number">{role.attributes.userCount}</td>
            <td>{date.format(new Date(role.attributes.createdAt))}</td>
            {isAdmin && (
              <td>
                <div className="row-actions">
                  <RowAction
                    label={t('list.editLabel', { name: role.attributes.name })}
                    onClick={() => setEditing(role.id)}
                  >
                    {t('list.edit')}
                  </RowAction>
                  <RowAction
                    label={t('list.deleteLabel', { name: role.attributes.name })}
                    danger
                    onClick={() => setDeleting(role)}
                  >
                    {t('list.delete')}
                  </RowAction>
                </div>
              </td>
            )}
          </tr>
        ))}
      </PagedTable>
      <ConfirmDialog
        open={deleting !== null}
        title={deleting ? t('delete.title', { name: deleting.attributes.name }) : ''}
        confirmLabel={t('delete.confirm')}
        danger
        pending={remove.isPending}
        onConfirm={() => void confirmDelete()}
        onCancel={() => setDeleting(null)}
      >
        <p>{t('delete.body')}</p>
      </ConfirmDialog>
    </section>
  );
}
