import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlowLoading } from '../api/query.ts';
import { type ListParams, nextSort, PAGE_SIZES, pageCount } from './list-params.ts';

// The list state helpers live in list-params.ts (no i18n, unit-testable); screens that import them from here go on
// working.
export { type ListParams, listQuery, nextSort, PAGE_SIZES, pageCount, useListParams } from './list-params.ts';
import { registerCatalogue } from '../i18n/lazy.ts';
import { DATA_LIST_TEXTS } from './data-list-texts.ts';

registerCatalogue('dataList', DATA_LIST_TEXTS);

/** A search form: applies as the user pauses typing (300 ms) and at once on Enter or the button. */
export function SearchBox(props: { id: string; label: string; value: string; onSearch: (q: string) => void }) {
  const { t } = useTranslation('dataList');
  const [text, setText] = useState(props.value);
  // The latest callback, so a re-render of the list does not restart the pause timer.
  const onSearch = useRef(props.onSearch);
  onSearch.current = props.onSearch;
  useEffect(() => {
    const timer = setTimeout(() => onSearch.current(text.trim()), 300);
    return () => clearTimeout(timer);
  }, [text]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch.current(text.trim());
  };
  return (
    <form role="search" className="list-search" onSubmit={submit}>
      <label htmlFor={props.id}>{props.label}</label>
      <div className="list-search-row">
        <input id={props.id} type="search" value={text} maxLength={200} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="button">
          {t('searchSubmit')}
        </button>
      </div>
    </form>
  );
}

/** A column header that sorts the list by its field; `aria-sort` tells the current direction. */
export function SortHeader(props: { field: string; label: string; sort: string; onSort: (sort: string) => void }) {
  const { t } = useTranslation('dataList');
  const { field, label, sort } = props;
  const direction = sort === field ? 'ascending' : sort === `-${field}` ? 'descending' : undefined;
  const next = nextSort(sort, field);
  return (
    <th scope="col" aria-sort={direction ?? 'none'}>
      <button
        type="button"
        className="sort-button"
        onClick={() => props.onSort(next)}
        aria-label={next.startsWith('-') ? t('sortDescending', { label }) : t('sortAscending', { label })}
      >
        {label}
        <span aria-hidden="true" className="sort-mark">
          {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '⇅'}
        </span>
      </button>
    </th>
  );
}

/** Previous / next, where the list is, and how many items a page shows. */
export function Pager(props: {
  page: number;
  size: number;
  total: number;
  /** More than `total` match (lists of flows, documents, tasks and workspaces stop counting): a next page exists. */
  totalCapped?: boolean;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  idPrefix: string;
}) {
  const { t, i18n } = useTranslation('dataList');
  const { page, size, total } = props;
  const capped = props.totalCapped === true;
  const pages = capped ? page + 1 : pageCount(total, size);
  if (total === 0) return null;
  const from = (page - 1) * size + 1;
  const to = capped ? page * size : Math.min(total, page * size);
  const number = new Intl.NumberFormat(i18n.language === 'en' ? 'en-US' : 'ja-JP');
  const status = { total: number.format(total), from: number.format(from), to: number.format(to), page, pages };
  return (
    <nav className="pager" aria-label={t('pagingLabel')}>
      <p className="pager-status" aria-live="polite">
        {t(capped ? 'pageStatusCapped' : 'pageStatus', status)}
      </p>
      <div className="pager-controls">
        <button type="button" className="button" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
          {t('previous')}
        </button>
        <button type="button" className="button" disabled={page >= pages} onClick={() => props.onPage(page + 1)}>
          {t('next')}
        </button>
        <label htmlFor={`${props.idPrefix}-page-size`} className="visually-hidden">
          {t('pageSize')}
        </label>
        <select
          id={`${props.idPrefix}-page-size`}
          value={size}
          onChange={(event) => props.onSize(Number(event.target.value))}
        >
          {PAGE_SIZES.map((option) => (
            <option key={option} value={option}>
              {t('pageSizeOption', { size: option })}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}

/** A table that scrolls sideways on narrow screens; the region is focusable so keyboards can scroll it. */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** Loading (with the slow notice), a failure, or an empty list: what a list shows instead of its rows. */
export function ListState(props: {
  pending: boolean;
  error: unknown;
  empty: boolean;
  emptyText: string;
  searching: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation(['dataList', 'errors', 'common']);
  const slow = useSlowLoading(props.pending);
  if (props.pending) {
    return (
      <div role="status" className="list-state">
        <p className="muted">{t('loading')}</p>
        {slow && <p className="notice">{t('common:slowLoading')}</p>}
      </div>
    );
  }
  if (props.error) {
    const code = (props.error as { code?: string }).code ?? 'UNKNOWN_ERROR';
    return (
      <div role="alert" className="form-error list-state">
        <p>{t(`errors:${code}`)}</p>
        <button type="button" className="button" onClick={props.onRetry}>
          {t('reload')}
        </button>
      </div>
    );
  }
  if (props.empty) {
    return (
      <p className="list-state empty-state" role="status">
        {props.searching ? t('emptySearch') : props.emptyText}
      </p>
    );
  }
  return null;
}

/** A list's sort state as useListParams keeps it. */
interface SortState<S extends string> {
  params: { sort: S };
  setSort: (sort: S) => void;
}

/** A column header factory for `list`: `sortable('name', label)` sorts the list by that field. */
export function sortHeaders<S extends string>(list: SortState<S>) {
  return (field: S, label: string) => (
    <SortHeader field={field} label={label} sort={list.params.sort} onSort={(s) => list.setSort(s as S)} />
  );
}

/** What PagedTable reads of a list query (a TanStack Query result of a paged list answer). */
interface PagedQuery {
  isPending: boolean;
  isSuccess: boolean;
  isFetching: boolean;
  error: unknown;
  data: { meta: { total: number; totalCapped?: boolean } } | undefined;
  refetch: () => unknown;
}

/**
 * A paged list's body: its state (loading, failure, empty), the table of the page's rows once there are any, and
 * the pager. `header` is the header row's cells, `children` the body's rows.
 */
export function PagedTable(props: {
  idPrefix: string;
  list: { params: ListParams<string>; setPage: (page: number) => void; setSize: (size: number) => void };
  query: PagedQuery;
  rowCount: number;
  emptyText: string;
  searching: boolean;
  tableLabel: string;
  header: ReactNode;
  children: ReactNode;
}) {
  const { list, query } = props;
  return (
    <>
      <ListState
        pending={query.isPending}
        error={query.error}
        empty={query.isSuccess && props.rowCount === 0}
        emptyText={props.emptyText}
        searching={props.searching}
        onRetry={() => void query.refetch()}
      />
      {props.rowCount > 0 && (
        <TableScroll label={props.tableLabel}>
          <table className="data-table" aria-busy={query.isFetching}>
            <thead>
              <tr>{props.header}</tr>
            </thead>
            <tbody>{props.children}</tbody>
          </table>
        </TableScroll>
      )}
      <Pager
        idPrefix={props.idPrefix}
        page={list.params.page}
        size={list.params.size}
        total={query.data?.meta.total ?? 0}
        totalCapped={query.data?.meta.totalCapped}
        onPage={list.setPage}
        onSize={list.setSize}
      />
    </>
  );
}

/** A small button among a table row's actions; `label` is its accessible name, naming the row too. */
export function RowAction(props: {
  label: string;
  danger?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={props.danger ? 'button small danger' : 'button small'}
      disabled={props.disabled}
      aria-label={props.label}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}
