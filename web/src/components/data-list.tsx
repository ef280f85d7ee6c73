import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSlowLoading } from '../api/query.ts';
import { nextSort, PAGE_SIZES, pageCount } from './list-params.ts';

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
  onPage: (page: number) => void;
  onSize: (size: number) => void;
  idPrefix: string;
}) {
  const { t } = useTranslation('dataList');
  const { page, size, total } = props;
  const pages = pageCount(total, size);
  if (total === 0) return null;
  const from = (page - 1) * size + 1;
  const to = Math.min(total, page * size);
  return (
    <nav className="pager" aria-label={t('pagingLabel')}>
      <p className="pager-status" aria-live="polite">
        {t('pageStatus', { total, from, to, page, pages })}
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
