import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * The tamper-evident chains (operation log, sign-record ledger) share one rule: each row's hash is
 * `sha256(prevHash + "\n" + canonicalJson(content))`, rows of one organization linked in id order. The CSV
 * exports carry every hashed field, so `keiyaku log verify --file` recomputes the same hashes offline.
 */

/** JSON with keys sorted at every level and undefined dropped, so jsonb's reordering never changes a hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value instanceof Date ? value.toISOString() : value);
}

/** The hash of one row from the previous row's hash and the row's content. */
export function chainHash(prevHash: string | null, content: Record<string, unknown>): string {
  return createHash('sha256')
    .update(`${prevHash ?? ''}\n${canonicalJson(content)}`)
    .digest('hex');
}

/** Why a row breaks its chain: its content no longer matches its hash, or it does not follow the row before it. */
export type ChainBreakReason = 'hash_mismatch' | 'broken_link';

export interface ChainVerdict {
  /** Rows found intact before the first bad one (all of them when intact). */
  checked: number;
  firstBad: { id: number; reason: ChainBreakReason } | null;
}

export interface ChainedRow {
  id: number;
  prev_hash: string | null;
  hash: string;
}

/** Rows of one scoped query in id order, read in batches so a long chain never sits in memory at once. */
export async function* inIdBatches<Row extends { id: number }>(
  scope: () => Knex.QueryBuilder,
  idColumn = 'id',
  batchSize = 500,
): AsyncGenerator<Row> {
  let after = 0;
  for (;;) {
    const rows = (await scope().where(idColumn, '>', after).orderBy(idColumn, 'asc').limit(batchSize)) as Row[];
    yield* rows;
    if (rows.length < batchSize) return;
    after = rows.at(-1)!.id;
  }
}

/** Re-computes a chain from its first row; stops at the first row that does not match. */
export async function verifyRows<Row extends ChainedRow>(
  rows: AsyncIterable<Row>,
  hashOf: (row: Row) => string,
): Promise<ChainVerdict> {
  let previous: string | null = null;
  let checked = 0;
  for await (const row of rows) {
    if (row.prev_hash !== previous) return { checked, firstBad: { id: Number(row.id), reason: 'broken_link' } };
    if (hashOf(row) !== row.hash) return { checked, firstBad: { id: Number(row.id), reason: 'hash_mismatch' } };
    previous = row.hash;
    checked += 1;
  }
  return { checked, firstBad: null };
}

/**
 * Serialises appends to one chain inside the caller's transaction and returns the hash the new row links to.
 * `chain` names the table and the organization (or 'system').
 */
export async function lastHashLocked(
  trx: Knex.Transaction,
  table: string,
  organizationId: string | null,
): Promise<string | null> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`${table}:${organizationId ?? 'system'}`]);
  const last = await trx(table)
    .where(organizationId ? { organization_id: organizationId } : { organization_id: null })
    .orderBy('id', 'desc')
    .first('hash');
  return (last?.hash as string | undefined) ?? null;
}
