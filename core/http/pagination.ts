import type { Knex } from 'knex';
import { withGenericPlans } from '../db/prepared-client.ts';
import { AppError } from './errors.ts';

/** The paging and sorting parameters every list operation declares (`page[number]`, `page[size]`, `sort`). */
export interface ListQuery {
  'page[number]'?: number;
  'page[size]'?: number;
  /** Keyset paging: the previous page's `meta.page.next` (only the lists that pass `keyset`). */
  'page[after]'?: string;
  sort?: string;
}

/** What every list response carries in `meta`. */
export interface ListMeta {
  total: number;
  /** Set by the lists that stop counting: more than `total` items match (`total` is then a lower bound). */
  totalCapped?: boolean;
  /** `next`: the cursor of the page after this one (keyset lists, full pages only). */
  page: { number: number; size: number; next?: string };
}

export const DEFAULT_PAGE_SIZE = 20;

/**
 * Where the lists that can grow without bound (business flows, documents, tasks, workspaces) stop counting: a count
 * of every match costs as much as reading them all (285 ms at 100,000 flows), and nobody pages through more than
 * ten pages of 20 to find one (they search). Counting costs a lookup per row counted (the tasks list joins each to its
 * document and flow: 10 ms for 1,000 rows), so the cap is ten pages, not more. The count always reaches past the
 * page asked for, so "next" is known on any page.
 */
export const LIST_COUNT_CAP = 200;

/** The columns a keyset page reads besides the caller's: the sort value and the id, as text (exact to the µs). */
const CURSOR_VALUE = '_page_cursor_value';
const CURSOR_ID = '_page_cursor_id';

interface Cursor {
  /** The sort the cursor was made for (`-createdAt`): a cursor of another order would skip or repeat items. */
  sort: string;
  /** The last item's sort value as PostgreSQL prints it, or null. */
  value: string | null;
  id: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.value, cursor.id])).toString('base64url');
}

/** Reads a `page[after]`; anything but a cursor this server made for this sort is 400 PAGE_CURSOR_INVALID. */
function decodeCursor(text: string, sort: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = null;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 3 ||
    parsed[0] !== sort ||
    (parsed[1] !== null && (typeof parsed[1] !== 'string' || parsed[1].length > 500)) ||
    typeof parsed[2] !== 'string' ||
    !UUID.test(parsed[2])
  ) {
    throw new AppError('PAGE_CURSOR_INVALID', { pointer: '/page[after]' });
  }
  return { sort: parsed[0], value: parsed[1], id: parsed[2] };
}

/**
 * Restricts a query to the rows after a cursor in the order `column` (asc or desc, NULLs last ascending and first
 * descending, as PostgreSQL sorts them), then `id` in the same direction: the order the page reads, which one index
 * on (column, id) serves read either way.
 */
function whereAfter(query: Knex.QueryBuilder, column: string, idColumn: string, descending: boolean, cursor: Cursor) {
  const idAfter = descending ? '<' : '>';
  query.where((w) => {
    if (cursor.value === null) {
      // NULLs come last ascending (nothing non-null after them) and first descending (every non-null after them).
      w.where((n) => n.whereNull(column).where(idColumn, idAfter, cursor.id));
      if (descending) w.orWhereNotNull(column);
    } else {
      // A text value compares as the column's own type (PostgreSQL casts the untyped parameter).
      w.where(column, descending ? '<' : '>', cursor.value).orWhere((e) =>
        e.where(column, cursor.value).where(idColumn, idAfter, cursor.id),
      );
      if (!descending) w.orWhereNull(column);
    }
  });
}

/** The column a branch of a paged list yields: the id of each of its first rows (see PageOptions.branches). */
export const BRANCH_ID = '_page_branch_id';

export interface PageOptions {
  /** Stop counting past this many rows (see LIST_COUNT_CAP). */
  countCap?: number;
  /** Page by keys too (`page[after]`, `meta.page.next`). */
  keyset?: boolean;
  /**
   * The scope holds no filter of the caller's, only who may see what, and one plan suits every caller: the first
   * page's and the keyset pages' limits are written into the SQL (LITERAL_LIMIT) and, on a PostgreSQL server, both
   * statements run in a transaction that has PostgreSQL use their generic plan (planned once per connection). Planning
   * was three quarters of the database's time on a member's first page of flows, and PostgreSQL kept planning it per
   * execution although the generic plan serves them all (a member's first page of 100,000 flows 478 → 881 req/s at
   * 20 connections). With a filter a plan good for one value (a common status) can be bad for another (a rare one),
   * so filtered lists keep theirs planned per execution; and "my tasks" keeps its too (its count's generic plan reads
   * the tasks table in order and stops early only where the active tasks happen to lie first), as does the flow list
   * in any order but the default (sorted by name, 19 ms against 2.9 ms).
   * Measure before setting it.
   */
  unfiltered?: boolean;
  /**
   * Disjoint parts of the scope, together all of it, that each an index reads in the sort's order: the scope's own
   * OR of them would sort every matching row to find the first page. Each part gets the scope ordered, limited to
   * the rows a page needs and selecting `idColumn AS _page_branch_id` (BRANCH_ID), and returns it restricted to its
   * part (or joined LATERAL, one walk per group, say) still yielding BRANCH_ID. The count adds up the parts' rows
   * (each counted up to the cap), and the page's rows are read by their ids with `rows`: the scope's tables and
   * columns without its conditions (the parts applied them), so the planner plans the joins once, not three times.
   */
  branches?: {
    parts: Array<(first: Knex.QueryBuilder) => Knex.QueryBuilder>;
    rows: () => Knex.QueryBuilder;
  };
}

/**
 * `.limit(n, LITERAL_LIMIT)`: the LIMIT written into the SQL rather than bound. PostgreSQL plans a bound LIMIT of a
 * prepared statement as "a tenth of the rows", so the statement's generic plan looks dear and every execution is
 * planned anew for its values; with the page size or the count cap in the text, the generic plan can serve every
 * caller (an administrator's first page of 100,000 flows: 483 → 872 req/s at 20 connections). Only for limits fixed
 * by the code or the contract (a page size, a cap), and only where one plan suits every value (PageOptions.unfiltered).
 * The code's other constants (statuses, kinds, flags) belong in the text too (withGenericPlans): while the inbox bound
 * them, its generic plans were a hundred times slower.
 */
export const LITERAL_LIMIT = { skipBinding: true } as const;

/** `(branch₁ UNION ALL branch₂ …) AS b`, each branch given its own copy of `first` (see PageOptions.branches). */
export function unionOfBranches(
  knex: Knex | Knex.Client,
  branches: Array<(first: Knex.QueryBuilder) => Knex.QueryBuilder>,
  first: () => Knex.QueryBuilder,
): Knex.Raw {
  return knex.raw(
    `(${branches.map(() => '?').join(' UNION ALL ')}) AS b`,
    branches.map((branch) => branch(first())),
  );
}

/**
 * Runs one page of a scoped query. `sortable` maps the contract's sort keys (`name`, `createdAt`) to columns; a
 * leading `-` sorts descending, and `id` always breaks ties so pages never overlap or skip rows.
 *
 * With `keyset`, the lists that can grow without bound also page by keys: `meta.page.next` is a cursor after the
 * page's last row and `page[after]` starts there (without an OFFSET, so the 50th page costs what the first does,
 * and rows added meanwhile neither repeat nor push others out of sight). `page[number]` keeps working (an OFFSET).
 */
export async function pageOf<Row>(
  scope: Knex.QueryBuilder,
  query: ListQuery,
  sortable: Record<string, string>,
  defaultSort: string,
  idColumn = 'id',
  options: PageOptions = {},
): Promise<{ rows: Row[]; meta: ListMeta }> {
  const size = query['page[size]'] ?? DEFAULT_PAGE_SIZE;
  const sort = query.sort ?? defaultSort;
  const descending = sort.startsWith('-');
  const column = sortable[descending ? sort.slice(1) : sort] ?? sortable[defaultSort.replace(/^-/, '')]!;
  const cursor = options.keyset && query['page[after]'] !== undefined ? decodeCursor(query['page[after]'], sort) : null;
  const number = cursor ? 1 : (query['page[number]'] ?? 1);
  const countUpTo = options.countCap === undefined ? null : Math.max(options.countCap, number * size);
  const knex = scope.client;
  const order = [
    { column, order: descending ? 'desc' : 'asc' },
    // Keyset lists break ties in the sort's direction, so one (column, id) index serves both directions.
    { column: idColumn, order: descending && options.keyset ? 'desc' : 'asc' },
  ];
  const offset = cursor ? 0 : (number - 1) * size;
  // See PageOptions.unfiltered; deeper pages by number, whose limits grow with the page, keep them bound.
  const planOnce = options.unfiltered === true && offset === 0;
  const limited = (query: Knex.QueryBuilder, rows: number) =>
    planOnce ? query.limit(rows, LITERAL_LIMIT) : query.limit(rows);
  let count = scope.clone().clearSelect().clearOrder();
  let page = scope.clone();
  if (cursor) whereAfter(page, column, idColumn, descending, cursor);
  if (options.branches) {
    const firstOf = (limit: number, ordered: boolean) => {
      const first = limited(scope.clone().clearSelect().clearOrder().select(`${idColumn} as ${BRANCH_ID}`), limit);
      if (ordered) first.orderBy(order);
      if (ordered && cursor) whereAfter(first, column, idColumn, descending, cursor);
      return first;
    };
    const union = (limit: number, ordered: boolean) =>
      unionOfBranches(knex, options.branches!.parts, () => firstOf(limit, ordered));
    // = ANY(ARRAY(…)): the ids are computed first and the rows read by their key (an IN here was planned as a
    // semi-join over every row of the scope).
    page = options.branches.rows().whereRaw('?? = ANY(ARRAY(?))', [
      idColumn,
      knex
        .queryBuilder()
        .select(BRANCH_ID)
        .from(union(offset + size, true)),
    ]);
    if (countUpTo !== null) count = knex.queryBuilder().from(union(countUpTo + 1, false));
  }
  if (options.keyset) {
    page.select(knex.raw('??::text as ??, ??::text as ??', [column, CURSOR_VALUE, idColumn, CURSOR_ID]));
  }
  // The count and the page run side by side, on two pooled connections where there are two; both are prepared
  // statements (core/db/prepared-client.ts): the shapes of a list's queries are few, and planning them cost more than
  // running them. Planned once for all (PageOptions.unfiltered), they run one after the other in one transaction.
  const queries = [
    countUpTo === null
      ? count.count<{ total: number }[]>({ total: '*' })
      : knex
          .queryBuilder()
          .options({ prepare: true })
          .count<{ total: number }[]>({ total: '*' })
          .from(limited(count.select(knex.raw('1')), countUpTo + 1).as('capped')),
    limited(page.orderBy(order), size).offset(offset).options({ prepare: true }),
  ];
  const [[{ total }], rows] = (await (planOnce ? withGenericPlans(knex, queries) : Promise.all(queries))) as [
    [{ total: number }],
    Row[],
  ];
  const pageMeta: ListMeta['page'] = { number, size };
  if (options.keyset) {
    const last = rows.at(-1) as Record<string, unknown> | undefined;
    if (last && rows.length === size) {
      pageMeta.next = encodeCursor({ sort, value: last[CURSOR_VALUE] as string | null, id: last[CURSOR_ID] as string });
    }
    for (const row of rows as Record<string, unknown>[]) {
      delete row[CURSOR_VALUE];
      delete row[CURSOR_ID];
    }
  }
  if (countUpTo === null) return { rows, meta: { total: Number(total), page: pageMeta } };
  const capped = Number(total) > countUpTo;
  return { rows, meta: { total: capped ? countUpTo : Number(total), totalCapped: capped, page: pageMeta } };
}

/** Escapes `%`, `_` and `\` so a user's search text matches literally inside ILIKE. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
