import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/errors.ts';
import { PagedTable, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useListParams } from '../../../components/list-params.ts';
import { SelectField } from '../../../components/select-field.tsx';
import { japanDateFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { type UserSort, type UserStatus, useUsers } from '../api/list-users.ts';
import { UserBadges } from '../components/user-badges.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('users', { ja, en });

/** Users of the organization: search, sort, paging; administrators register users from here. */
export function UsersPage() {
  const { t, i18n } = useTranslation(['users', 'common']);
  const list = useListParams<UserSort>('loginId');
  const [status, setStatus] = useState<UserStatus | ''>('');
  const users = useUsers(list.params, status || undefined);
  const me = useCurrentUser();
  const isAdmin = me.data?.attributes.isAdmin ?? false;
  const names = new Intl.ListFormat(i18n.language, { style: 'narrow', type: 'unit' });
  const date = japanDateFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  const forbidden = users.error instanceof ApiError && users.error.code === 'FUNCTION_NOT_PERMITTED';
  const rows = users.data?.data ?? [];
  const sortable = sortHeaders(list);

  return (
    <section aria-labelledby="users-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="users-title">{t('title')}</h1>
        {isAdmin && (
          <Link to="/organizations/settings/users/new" className="button primary">
            {t('list.create')}
          </Link>
        )}
      </div>
      <p className="muted">{t('intro')}</p>
      {forbidden ? (
        <p className="notice" role="status">
          {t('list.forbidden')}
        </p>
      ) : (
        <>
          <div className="list-filters">
            <SearchBox id="users-search" label={t('list.search')} value={list.params.q} onSearch={list.setSearch} />
            <SelectField
              id="users-status"
              label={t('list.statusFilter')}
              value={status}
              options={[
                { value: '', label: t('list.allStatuses') },
                { value: 'active', label: t('status.active') },
                { value: 'deactivated', label: t('status.deactivated') },
              ]}
              onChange={(event) => {
                setStatus(event.target.value as UserStatus | '');
                list.setPage(1);
              }}
            />
          </div>
          <PagedTable
            idPrefix="users"
            list={list}
            query={users}
            rowCount={rows.length}
            emptyText={t('list.empty')}
            searching={list.params.q !== '' || status !== ''}
            tableLabel={t('list.tableLabel')}
            header={
              <>
                {sortable('loginId', t('list.columns.loginId'))}
                {sortable('name', t('list.columns.name'))}
                {sortable('email', t('list.columns.email'))}
                <th scope="col">{t('list.columns.status')}</th>
                <th scope="col">{t('list.columns.groups')}</th>
                <th scope="col">{t('list.columns.roles')}</th>
                {sortable('createdAt', t('list.columns.createdAt'))}
              </>
            }
          >
            {rows.map((user) => (
              <tr key={user.id}>
                <td>
                  <Link to="/organizations/settings/users/$userId" params={{ userId: user.id }}>
                    {user.attributes.loginId}
                  </Link>
                </td>
                <td>{user.attributes.name}</td>
                <td className="cell-wrap">{user.attributes.email}</td>
                <td>
                  <UserBadges user={user} />
                </td>
                <td>{names.format(user.attributes.groups.map((group) => group.name))}</td>
                <td>{names.format(user.attributes.roles.map((role) => role.name))}</td>
                <td>{date.format(new Date(user.attributes.createdAt))}</td>
              </tr>
            ))}
          </PagedTable>
        </>
      )}
    </section>
  );
}
