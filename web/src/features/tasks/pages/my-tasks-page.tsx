import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedTable, SearchBox, sortHeaders } from '../../../components/data-list.tsx';
import { useListParams } from '../../../components/list-params.ts';
import { SelectField } from '../../../components/select-field.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { type MyTaskSort, type MyTaskType, useMyTasks } from '../api/list-my-tasks.ts';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';

registerCatalogue('tasks', { ja, en });

const TYPES: MyTaskType[] = ['approve', 'read', 'sign'];

/** "Executable tasks": what the caller can run now across workspaces, with a type filter and search. */
export function MyTasksPage() {
  const { t, i18n } = useTranslation(['tasks', 'common']);
  const list = useListParams<MyTaskSort>('-activatedAt');
  const [type, setType] = useState<MyTaskType | ''>('');
  const tasks = useMyTasks(list.params, type);
  const rows = tasks.data?.data ?? [];
  const sortable = sortHeaders(list);
  const date = japanDateTimeFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  return (
    <section aria-labelledby="my-tasks-title" className="admin-screen">
      <h1 id="my-tasks-title">{t('title')}</h1>
      <p className="muted">{t('intro')}</p>
      <div className="my-tasks-filters">
        <SearchBox id="my-tasks-search" label={t('search')} value={list.params.q} onSearch={list.setSearch} />
        <SelectField
          id="my-tasks-type"
          label={t('typeFilter')}
          value={type}
          options={[
            { value: '', label: t('allTypes') },
            ...TYPES.map((value) => ({ value, label: t(`types.${value}`) })),
          ]}
          onChange={(event) => {
            setType(event.target.value as MyTaskType | '');
            list.setPage(1);
          }}
        />
      </div>
      <PagedTable
        idPrefix="my-tasks"
        list={list}
        query={tasks}
        rowCount={rows.length}
        emptyText={t('empty')}
        searching={list.params.q !== '' || type !== ''}
        tableLabel={t('tableLabel')}
        header={
          <>
            <th scope="col">{t('columns.document')}</th>
            <th scope="col">{t('columns.type')}</th>
            <th scope="col">{t('columns.order')}</th>
            <th scope="col">{t('columns.businessFlow')}</th>
            <th scope="col">{t('columns.workspace')}</th>
            {sortable('activatedAt', t('columns.assignedAt'))}
            <th scope="col">{t('columns.state')}</th>
            <th scope="col">{t('columns.actions')}</th>
          </>
        }
      >
        {rows.map((task) => {
          const a = task.attributes;
          return (
            <tr key={task.id}>
              <td className="cell-wrap">
                <Link to="/organizations/documents/$documentId" params={{ documentId: a.document.id }}>
                  {a.document.name}
                </Link>
              </td>
              <td>{t(`types.${a.type}`)}</td>
              <td className="cell-number">{a.order}</td>
              <td className="cell-wrap">{a.businessFlow.name}</td>
              <td className="cell-wrap">
                {a.workspace.name}
                <span className="muted"> ({a.workspace.ownerOrganizationName})</span>
              </td>
              <td>{a.activatedAt ? date.format(new Date(a.activatedAt)) : '—'}</td>
              <td>
                <span className={a.blockedByScan ? 'badge badge-warn' : 'badge badge-ok'}>
                  {a.blockedByScan ? t('scanning') : t('ready')}
                </span>
              </td>
              <td>
                {a.type === 'sign' && !a.blockedByScan && (
                  <Link
                    className="button small primary"
                    to="/organizations/documents/$documentId/tasks/$taskId/sign"
                    params={{ documentId: a.document.id, taskId: task.id }}
                    aria-label={t('signLabel', { name: a.document.name })}
                  >
                    {t('sign')}
                  </Link>
                )}
              </td>
            </tr>
          );
        })}
      </PagedTable>
    </section>
  );
}
