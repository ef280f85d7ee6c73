import type { Knex } from 'knex';

/** The paging and sorting parameters every list operation declares (`page[number]`, `page[size]`, `sort`). */
export interface ListQuery {
  'page[number]'?: number;
  'page[size]'?: number;
  sort?: string;
}

/** What every list response carries in `meta`. */
export interface ListMeta {
  total: number;
  page: { number: number; size: number };
}

export const DEFAULT_PAGE_SIZE = 20;

/**
 * Runs one page of a scoped query. `sortable` maps the contract's sort keys (`name`, `createdAt`) to columns; a
 * leading `-` sorts descending, and `id` always breaks ties so pages never overlap or skip rows.
 */
export async function pageOf<Row>(
  scope: Knex.QueryBuilder,
  query: ListQuery,
  sortable: Record<string, string>,
  defaultSort: string,
  idColumn = 'id',
): Promise<{ rows: Row[]; meta: ListMeta }> {
  const number = query['page[number]'] ?? 1;
  const size = query['page[size]'] ?? DEFAULT_PAGE_SIZE;
  const sort = query.sort ?? defaultSort;
  const descending = sort.startsWith('-');
  const column = sortable[descending ? sort.slice(1) : sort] ?? sortable[defaultSort.replace(/^-/, '')]!;
  // The count and the page run side by side, on two pooled connections where there are two.
  const [[{ total }], rows] = (await Promise.all([
    scope.clone().clearSelect().clearOrder().count<{ total: number }[]>({ total: '*' }),
    scope
      .clone()
      .orderBy([
        { column, order: descending ? 'desc' : 'asc' },
        { column: idColumn, order: 'asc' },
      ])
      .limit(size)
      .offset((number - 1) * size),
  ])) as [[{ total: number }], Row[]];
  return { rows, meta: { total: Number(total), page: { number, size } } };
}

/** Escapes `%`, `_` and `\` so a user's search text matches literally inside ILIKE. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
