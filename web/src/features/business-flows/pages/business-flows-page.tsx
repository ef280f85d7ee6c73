import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'react-toastify';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { ListState, Pager, TableScroll } from '../../../components/data-list.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { japanDateTimeFormat } from '../../../components/date-format.ts';
import { registerCatalogue } from '../../../i18n/lazy.ts';
import { useExportBusinessFlows } from '../api/export-business-flows.ts';
import { useDocumentProperties, useFlowProperties } from '../api/list-flow-properties.ts';
import { useFlowWorkspaces } from '../api/list-flow-workspaces.ts';
import { useFlowSearch } from '../api/search-business-flows.ts';
import { SearchForm } from '../components/search-form.tsx';
import { StatusBadge } from '../components/status-badge.tsx';
import en from '../i18n/en.json';
import ja from '../i18n/ja.json';
import { FLOW_SORTS, type FlowSearch, flowSearchParams, hasFilters, parseFlowSearch } from '../search-params.ts';

registerCatalogue('businessFlows', { ja, en });

const route = getRouteApi('/guarded/organizations/business-flows');

/** Business flow search: the conditions live in the URL; results page by page; CSV export of the same search. */
export function BusinessFlowsPage() {
  const { t, i18n } = useTranslation(['businessFlows', 'common']);
  const params = route.useSearch();
  const navigate = route.useNavigate();
  const search = parseFlowSearch(params);
  const flows = useFlowSearch(search);
  const workspaces = useFlowWorkspaces();
  const properties = useFlowProperties();
  const documentProperties = useDocumentProperties();
  const exporter = useExportBusinessFlows();
  const [exportFailure, setExportFailure] = useState<unknown>(null);
  const time = japanDateTimeFormat(i18n.language);

  useEffect(() => {
    document.title = `${t('title')} | ${t('common:appName')}`;
  }, [t]);

  const go = (next: FlowSearch) =>
    void navigate({ to: '/organizations/business-flows', search: flowSearchParams(next) });
  const rows = flows.data?.data ?? [];
  const total = flows.data?.meta.total ?? 0;
  const searchProperties = [
    ...(properties.data ?? []).map((p) => ({ p, name: p.attributes.name })),
    ...(documentProperties.data ?? []).map((p) => ({
      p,
      name: t('search.documentProperty', { name: p.attributes.name }),
    })),
  ].map(({ p, name }) => ({
    id: p.id,
    name,
    inputType: p.attributes.inputType,
    options: p.attributes.options,
    decimalLength: p.attributes.decimalLength ?? null,
  }));
  const exportCsv = async () => {
    setExportFailure(null);
    try {
      await exporter.mutateAsync(search);
      toast.success(t('list.exported'));
    } catch (error) {
      setExportFailure(error);
    }
  };

  return (
    <section aria-labelledby="flows-title" className="admin-screen">
      <div className="screen-header">
        <h1 id="flows-title">{t('title')}</h1>
        <Link to="/organizations/business-flows/new" className="button primary">
          {t('list.create')}
        </Link>
      </div>
      <p className="muted">{t('intro')}</p>
      <SearchForm
        key={JSON.stringify(params)}
        search={search}
        workspaces={workspaces.data ?? []}
        properties={searchProperties}
        onSearch={go}
      />
      <div className="list-toolbar">
        <SelectField
          id="flows-sort"
          label={t('list.sortBy')}
          value={search.sort}
          onChange={(event) => go({ ...search, sort: event.target.value, page: 1 })}
          options={FLOW_SORTS.map((sort) => ({ value: sort, label: t(`list.sorts.${sort}`) }))}
        />
        <button
          type="button"
          className="button"
          disabled={exporter.isPending || total === 0}
          onClick={() => void exportCsv()}
        >
          {exporter.isPending ? t('list.exporting') : t('list.export')}
        </button>
      </div>
      {/* CSV_EXPORT_LIMIT_EXCEEDED reads with the server's max and total (meta.messages). */}
      <ApiErrorNotice error={exportFailure} />
      <ListState
        pending={flows.isPending}
        error={flows.error}
        empty={flows.isSuccess && rows.length === 0}
        emptyText={t('list.empty')}
        searching={hasFilters(search)}
        onRetry={() => void flows.refetch()}
      />
      {rows.length > 0 && (
        <TableScroll label={t('list.tableLabel')}>
          <table className="data-table" aria-busy={flows.isFetching}>
            <thead>
              <tr>
                <th scope="col">{t('list.columns.name')}</th>
                <th scope="col">{t('list.columns.status')}</th>
                <th scope="col">{t('list.columns.workspace')}</th>
                <th scope="col">{t('list.columns.systemLinkId')}</th>
                <th scope="col">{t('list.columns.updatedAt')}</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((flow) => (
                <tr key={flow.id}>
                  <td>
                    <Link to="/business-flows/$businessFlowId" params={{ businessFlowId: flow.id }}>
                      {flow.attributes.name}
                    </Link>
                  </td>
                  <td>
                    <StatusBadge status={flow.attributes.status} />
                  </td>
                  <td>{flow.attributes.workspace.name}</td>
                  <td>{flow.attributes.systemLinkId ?? '—'}</td>
                  <td>{time.format(new Date(flow.attributes.updatedAt))}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <Pager
        idPrefix="flows"
        page={search.page}
        size={search.size}
        total={total}
        totalCapped={flows.data?.meta.totalCapped}
        onPage={(page) => go({ ...search, page })}
        onSize={(size) => go({ ...search, size, page: 1 })}
      />
    </section>
  );
}
