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
