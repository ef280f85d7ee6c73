import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { PagedTable, sortHeaders } from '../../../components/data-list.tsx';
import { useListParams } from '../../../components/list-params.ts';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { useWorkspaceFlows, type WorkspaceFlowSort } from '../api/list-workspace-flows.ts';

const BADGE: Record<string, string> = {
  draft: 'badge badge-muted',
  in_progress: 'badge badge-info',
  complete: 'badge badge-ok',
  incomplete: 'badge badge-warn',
  cancelled: 'badge badge-muted',
};

/** The workspace's business flows (newest first) with links to the search and to a new flow in this workspace. */
export function WorkspaceFlows(props: { workspaceId: string; canCreate: boolean; partner?: boolean }) {
  const { t, i18n } = useTranslation('workspaces');
  const list = useListParams<WorkspaceFlowSort>('-updatedAt');
  const flows = useWorkspaceFlows(props.workspaceId, list.params);
  const rows = flows.data?.data ?? [];
  const sortable = sortHeaders(list);
  const time = japanDateTimeFormat(i18n.language);
  return (
    <section aria-labelledby="workspace-flows-title" className="panel">
      <div className="screen-header">
        <h2 id="workspace-flows-title">{t('flows.title')}</h2>
        <div className="action-row">
          <Link to="/organizations/business-flows" search={{ workspaceId: props.workspaceId }} className="button">
            {t('flows.all')}
          </Link>
          {props.canCreate && (
            <Link
              to="/organizations/business-flows/new"
              search={{ workspaceId: props.workspaceId }}
              className="button primary"
            >
              {t('flows.create')}
            </Link>
          )}
        </div>
      </div>
      <PagedTable
        idPrefix="workspace-flows"
        list={list}
        query={flows}
        rowCount={rows.length}
        emptyText={t('flows.empty')}
        searching={false}
        tableLabel={t('flows.tableLabel')}
        header={
          <>
            {sortable('name', t('flows.columns.name'))}
            <th scope="col">{t('flows.columns.status')}</th>
            {sortable('updatedAt', t('flows.columns.updatedAt'))}
          </>
        }
      >
        {rows.map((flow) => (
          <tr key={flow.id}>
            <td>
              <Link
                // A partner organization sees another organization's flow through its partner view.
                to={props.partner ? '/outer-business-flows/$outerBusinessFlowId' : '/business-flows/$businessFlowId'}
                params={{ businessFlowId: flow.id, outerBusinessFlowId: flow.id }}
              >
                {flow.attributes.name}
              </Link>
            </td>
            <td>
              <span className={BADGE[flow.attributes.status]}>{t(`status.${flow.attributes.status}`)}</span>
            </td>
            <td>{time.format(new Date(flow.attributes.updatedAt))}</td>
          </tr>
        ))}
      </PagedTable>
    </section>
  );
}
