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
  /** Set by the lists that stop counting: more than `total` items match (`total` is then a lower bound). */
  totalCapped?: boolean;
  page: { number: number; size: number };
}

export const DEFAULT_PAGE_SIZE = 20;

/**
 * Where the lists that can grow without bound (business flows, documents, tasks, workspaces) stop counting: a count
 * of every match costs as much as reading them all (285 ms at 100,000 flows), and nobody pages through more than
 * this to find one. The count always reaches past the page asked for, so "next" is known on any page.
 */
export const LIST_COUNT_CAP = 1000;

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
  options: { countCap?: number } = {},
): Promise<{ rows: Row[]; meta: ListMeta }> {
  const number = query['page[number]'] ?? 1;
  const size = query['page[size]'] ?? DEFAULT_PAGE_SIZE;
  const sort = query.sort ?? defaultSort;
  const descending = sort.startsWith('-');
  const column = sortable[descending ? sort.slice(1) : sort] ?? sortable[defaultSort.replace(/^-/, '')]!;
  const countUpTo = options.countCap === undefined ? null : Math.max(options.countCap, number * size);
  const count = scope.clone().clearSelect().clearOrder();
  // The count and the page run side by side, on two pooled connections where there are two.
  const [[{ total }], rows] = (await Promise.all([
    countUpTo === null
      ? count.count<{ total: number }[]>({ total: '*' })
      : scope.client
          .queryBuilder()
          .count<{ total: number }[]>({ total: '*' })
          .from(
            count
              .select(scope.client.raw('1'))
              .limit(countUpTo + 1)
              .as('capped'),
          ),
    scope
      .clone()
      .orderBy([
        { column, order: descending ? 'desc' : 'asc' },
        { column: idColumn, order: 'asc' },
      ])
      .limit(size)
      .offset((number - 1) * size),
  ])) as [[{ total: number }], Row[]];
  if (countUpTo === null) return { rows, meta: { total: Number(total), page: { number, size } } };
  const capped = Number(total) > countUpTo;
  return { rows, meta: { total: capped ? countUpTo : Number(total), totalCapped: capped, page: { number, size } } };
}

/** Escapes `%`, `_` and `\` so a user's search text matches literally inside ILIKE. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
