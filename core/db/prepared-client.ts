/*
 * knex's PostgreSQL client with prepared statements on request. A query built with `.options({ prepare: true })` is
 * sent as a named statement, its name derived from its SQL text, so every pooled connection parses and plans it once
 * and PostgreSQL may then keep a generic plan (after five executions, when that plan costs no more than the custom
 * ones). Planning was two thirds of the database's time on a page of business flows (npm run bench:flows).
 *
 * Only the hot list queries ask for it: each distinct SQL text stays prepared on each connection for the
 * connection's life, so the set must stay small (fixed shapes: a page of 20 ids, not an IN list of any length).
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
// knex's own dialect class (CommonJS, untyped here); a custom client is how knex lets a dialect be extended.
import ClientPg from 'knex/lib/dialects/postgres/index.js';

interface CompiledQuery {
  sql?: string;
  options?: Record<string, unknown> & { prepare?: boolean };
}

/** The statement name for a SQL text: stable across processes, unique per text (a name reused for another text fails). */
export function statementName(sql: string): string {
  return `k_${createHash('sha256').update(sql).digest('base64url').slice(0, 32)}`;
}

export class PreparingPgClient extends (ClientPg as unknown as typeof Knex.Client) {
  _query(connection: unknown, obj: CompiledQuery): Promise<unknown> {
    if (obj.options?.prepare && obj.sql) {
      const { prepare: _prepare, ...options } = obj.options;
      obj.options = { ...options, name: statementName(obj.sql) };
    }
    return (
      ClientPg as unknown as { prototype: { _query: (c: unknown, o: CompiledQuery) => Promise<unknown> } }
    ).prototype._query.call(this, connection, obj);
  }
}

/** Whether knex talks to a PostgreSQL server (ours, or knex's plain 'pg' client), not to the embedded PGlite. */
export function onPostgresServer(knex: Knex | Knex.Client): boolean {
  const client = typeof knex === 'function' ? knex.client : knex;
  return client instanceof PreparingPgClient || client.config.client === 'pg';
}

/**
 * Runs `queries` one after the other in a transaction in which PostgreSQL uses their generic plans (planned once per
 * connection); on the embedded PGlite, which keeps no plans, simply one after the other. Generic plans are good only
 * where the SQL text holds the code's constants (statuses, kinds, flags, page sizes) and binds only the caller's
 * values: a bound `status = $1` can use neither a partial index nor the column's statistics, and a bound LIMIT is
 * planned as "a tenth of the rows".
 */
export function withGenericPlans(
  knex: Knex | Knex.Client,
  queries: Array<Knex.QueryBuilder | Knex.Raw>,
): Promise<unknown[]> {
  const client = typeof knex === 'function' ? knex.client : knex;
  if (!onPostgresServer(client)) return inOrder(queries);
  // knex's Client starts a transaction as the Knex instance does; its types leave the method out.
  const begin = (client as unknown as Pick<Knex, 'transaction'>).transaction.bind(client);
  return begin(async (trx) => {
    await trx.raw('SET LOCAL plan_cache_mode = force_generic_plan');
    return inOrder(queries.map((query) => query.transacting(trx)));
  });
}

async function inOrder(queries: Array<Knex.QueryBuilder | Knex.Raw>): Promise<unknown[]> {
  const results: unknown[] = [];
  for (const query of queries) results.push(await query);
  return results;
}

/** A statement compiled once: its SQL and, per binding, the name of the caller's value it takes or a constant. */
interface Template {
  sql: string;
  slots: Array<{ name: string } | { constant: unknown }>;
}

const TEMPLATES = new WeakMap<Knex.Client, Map<string, Template>>();

/**
 * A statement whose SQL depends on `shape` alone, compiled by knex once per shape and then only given the caller's
 * `values`: knex compiled the home screen's inbox, some forty subqueries, in 2.6 ms a request (more than PostgreSQL
 * took to plan it once). `build` is called once per shape with a stand-in for each value, which must reach the
 * bindings unchanged (a value the query transforms, a search pattern say, cannot be templated: it is refused), and
 * everything else `build` reads must be part of `shape`.
 */
export function templated<V extends Record<string, string | Date>>(
  knex: Knex,
  shape: string,
  values: V,
  build: (values: V) => Knex.QueryBuilder,
): Knex.Raw {
  let templates = TEMPLATES.get(knex.client);
  if (!templates) TEMPLATES.set(knex.client, (templates = new Map()));
  let template = templates.get(shape);
  if (!template) {
    const standIn = (name: string) => `\u0000template:${name}`;
    const names = new Map(Object.keys(values).map((name) => [standIn(name), name]));
    const { sql, bindings } = build(
      Object.fromEntries(Object.keys(values).map((name) => [name, standIn(name)])) as unknown as V,
    ).toSQL();
    const holes = (sql.match(/\?/g) ?? []).length;
    const slots = bindings.map((binding) => {
      if (typeof binding === 'string' && names.has(binding)) return { name: names.get(binding)! };
      if (typeof binding === 'string' && binding.includes('\u0000template:')) {
        throw new Error(`templated(${shape}): a value reached the SQL transformed`);
      }
      return { constant: binding };
    });
    if (holes !== bindings.length) throw new Error(`templated(${shape}): the SQL holds a literal "?"`);
    templates.set(shape, (template = { sql, slots }));
  }
  return knex.raw(
    template.sql,
    template.slots.map((slot) => ('name' in slot ? values[slot.name]! : slot.constant)) as Knex.RawBinding[],
  );
}
