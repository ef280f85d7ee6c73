import { useState } from 'react';

export const PAGE_SIZES = [20, 50, 100] as const;

/** What a list asks the API for: `filter[q]`, `sort` (a field, `-` first for descending), `page[number]`, `page[size]`. */
export interface ListParams<S extends string> {
  q: string;
  sort: S;
  page: number;
  size: number;
}

/** The query of a list request, in the contract's parameter names (an empty search is left out). */
export function listQuery<S extends string>(params: ListParams<S>) {
  return {
    ...(params.q ? { 'filter[q]': params.q } : {}),
    sort: params.sort,
    'page[number]': params.page,
    'page[size]': params.size,
  };
}

/** The sort after a click on a column: the same column flips its direction, another column starts ascending. */
export function nextSort(current: string, field: string): string {
  return current === field ? `-${field}` : field;
}

/** The number of pages for `total` items, at least one. */
export function pageCount(total: number, size: number): number {
  return Math.max(1, Math.ceil(total / size));
}

/** A list's search, sort and paging state; a new search, sort or page size goes back to page 1. */
export function useListParams<S extends string>(initialSort: S) {
  const [params, setParams] = useState<ListParams<S>>({ q: '', sort: initialSort, page: 1, size: PAGE_SIZES[0] });
  return {
    params,
    setSearch: (q: string) => setParams((p) => (p.q === q ? p : { ...p, q, page: 1 })),
    setSort: (sort: S) => setParams((p) => ({ ...p, sort, page: 1 })),
    setPage: (page: number) => setParams((p) => ({ ...p, page })),
    setSize: (size: number) => setParams((p) => ({ ...p, size, page: 1 })),
  };
}
