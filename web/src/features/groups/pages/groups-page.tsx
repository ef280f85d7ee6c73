import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiError } from '../../../api/errors.ts';
import { PagedTable, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCreateGroup } from '../api/create-group.ts';
import { useMyRights } from '../api/my-rights.ts';
import { type GroupSort, useGroups } from '../api/list-groups.ts';
import { GroupForm } from '../components/group-form.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { groupAttributes } from '../validation.ts';

registerCatalogue('groups', { ja, en });

/** Groups of the organization: search, sort, paging; administrators create groups here. */
export function GroupsPage() {
  const { t, i18n } = useTranslation(['groups', 'common']);
  const list = useListParams<GroupSort>('name');
  const groups = useGroups(list.params);
  const rights = useMyRights();
  const create = useCreateGroup();
  const [creating, setCreating] = useState(false);
  const date = japanDateFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  const forbidden = groups.error instanceof ApiError && groups.error.code === 'FUNCTION_NOT_PERMITTED';
  const rows = groups.data?.data ?? [];
  const meta = groups.data?.meta;
  const sortable = sortHeaders(list);

  return (
    <section aria-labelledby="groups-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="groups-title">{t('title')}</h1>
        {rights.isAdmin && !creating && (
          <button type="button" className="button primary" onClick={() => setCreating(true)}>
            {t('list.create')}
          </button>
        )}
      </div>
      <p className="muted">{t('intro')}</p>
      {creating && (
        <section aria-labelledby="group-create-title" className="panel">
          <h2 id="group-create-title">{t('form.createTitle')}</h2>
          <GroupForm
            idPrefix="group-create"
            initial={{ name: '', systemLinkId: '' }}
            submitLabel={t('form.create')}
            onCancel={() => setCreating(false)}
            onSubmit={async (input) => {
              const group = await create.mutateAsync(groupAttributes(input));
              toast.success(t('form.created', { name: group.attributes.name }));
              setCreating(false);
            }}
          />
        </section>
      )}
      {forbidden ? (
        <p className="notice" role="status">
          {t('list.forbidden')}
        </p>
      ) : (
        <>
          <SearchBox id="groups-search" label={t('list.search')} value={list.params.q} onSearch={list.setSearch} />
          {meta && rights.isAdmin && list.params.q === '' && (
            <p className="muted">{t('list.usage', { count: meta.total, max: meta.maxGroups })}</p>
          )}
          <PagedTable
            idPrefix="groups"
            list={list}
            query={groups}
            rowCount={rows.length}
            emptyText={t('list.empty')}
            searching={list.params.q !== ''}
            tableLabel={t('list.tableLabel')}
            header={
              <>
                {sortable('name', t('list.columns.name'))}
                <th scope="col">{t('list.columns.systemLinkId')}</th>
                {sortable('memberCount', t('list.columns.memberCount'))}
                <th scope="col">{t('list.columns.groupAdminCount')}</th>
                {sortable('createdAt', t('list.columns.createdAt'))}
              </>
            }
          >
            {rows.map((group) => (
              <tr key={group.id}>
                <td>
                  <Link to="/organizations/settings/groups/$groupId" params={{ groupId: group.id }}>
                    {group.attributes.name}
                  </Link>
                </td>
                <td>{group.attributes.systemLinkId ?? '—'}</td>
                <td className="cell-number">{group.attributes.memberCount}</td>
                <td className="cell-number">{group.attributes.groupAdminCount}</td>
                <td>{date.format(new Date(group.attributes.createdAt))}</td>
              </tr>
            ))}
          </PagedTable>
        </>
      )}
    </section>
  );
}
