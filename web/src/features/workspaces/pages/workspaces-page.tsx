import { Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { PagedTable, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCreateWorkspace } from '../api/create-workspace.ts';
import { type WorkspaceSort, useWorkspaces } from '../api/list-workspaces.ts';
import { useOwnGroups } from '../api/list-own-groups.ts';
import { WorkspaceForm } from '../components/workspace-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { workspaceAttributes } from '../validation.ts';

registerCatalogue('workspaces', { ja, en });

/** Workspaces the user can see: search, sort, paging, and the creation form. */
export function WorkspacesPage() {
  const { t, i18n } = useTranslation(['workspaces', 'common']);
  const list = useListParams<WorkspaceSort>('-updatedAt');
  const workspaces = useWorkspaces(list.params);
  const [creating, setCreating] = useState(false);
  const date = japanDateFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  const rows = workspaces.data?.data ?? [];
  const sortable = sortHeaders(list);

  return (
    <section aria-labelledby="workspaces-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="workspaces-title">{t('title')}</h1>
        {!creating && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            {t('list.create')}
          </button>
        )}
      </div>
      <p className="muted">{t('intro')}</p>
      {creating && <CreateWorkspacePanel onClose={() => setCreating(false)} />}
      <SearchBox id="workspaces-search" label={t('list.search')} value={list.params.q} onSearch={list.setSearch} />
      <PagedTable
        idPrefix="workspaces"
        list={list}
        query={workspaces}
        rowCount={rows.length}
        emptyText={t('list.empty')}
        searching={list.params.q !== ''}
        tableLabel={t('list.tableLabel')}
        header={
          <>
            {sortable('name', t('list.columns.name'))}
            <th scope="col">{t('list.columns.systemLinkId')}</th>
            <th scope="col">{t('list.columns.owner')}</th>
            <th scope="col">{t('list.columns.businessFlowCount')}</th>
            {sortable('updatedAt', t('list.columns.updatedAt'))}
          </>
        }
      >
        {rows.map((workspace) => (
          <tr key={workspace.id}>
            <td>
              <Link to="/organizations/workspaces/$workspaceId" params={{ workspaceId: workspace.id }}>
                {workspace.attributes.name}
              </Link>
            </td>
            <td>{workspace.attributes.systemLinkId ?? '—'}</td>
            <td>
              {workspace.attributes.isOwnerOrganization
                ? t('list.ownOrganization')
                : workspace.attributes.ownerOrganization.name}
            </td>
            <td className="cell-number">{workspace.attributes.businessFlowCounts.total}</td>
            <td>{date.format(new Date(workspace.attributes.updatedAt))}</td>
          </tr>
        ))}
      </PagedTable>
    </section>
  );
}

/** The creation form with the own groups to choose from; a new workspace opens its detail. */
function CreateWorkspacePanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('workspaces');
  const navigate = useNavigate();
  const groups = useOwnGroups();
  const create = useCreateWorkspace();
  return (
    <section aria-labelledby="workspace-create-title" className="panel">
      <h2 id="workspace-create-title">{t('form.createTitle')}</h2>
      <WorkspaceForm
        idPrefix="workspace-create"
        initial={{ name: '', systemLinkId: '', description: '', mailNotification: true, groupIds: [] }}
        groups={groups.data ?? []}
        submitLabel={t('form.create')}
        onCancel={onClose}
        onSubmit={async (input) => {
          const workspace = await create.mutateAsync({ ...workspaceAttributes(input), groupIds: input.groupIds });
          toast.success(t('form.created', { name: workspace.attributes.name }));
          await navigate({ to: '/organizations/workspaces/$workspaceId', params: { workspaceId: workspace.id } });
        }}
      />
    </section>
  );
}
