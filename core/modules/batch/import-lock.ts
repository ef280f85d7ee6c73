import type { Knex } from 'knex';

/**
 * The lock of an organization's CSV imports, held to the end of the caller's transaction. An import holds it
 * exclusively: two imports locking the same users in different orders would deadlock. The invitation job holds it
 * shared before its user's row, so that a running import goes first: the invitations an earlier chunk of a file
 * queued (each hashing a password) would otherwise take the CPU the next chunk needs (`npm run bench:import` on
 * PostgreSQL, 3,000 users: 28.9 s without it, 15.2 s with it). Both take it before any row and the log's lock last,
 * as every writer does.
 */
export async function lockImports(trx: Knex.Transaction, organizationId: string, mode: 'import' | 'invitation') {
  const lock = mode === 'import' ? 'pg_advisory_xact_lock' : 'pg_advisory_xact_lock_shared';
  await trx.raw(`SELECT ${lock}(hashtext(?))`, [`batch_import:${organizationId}`]);
}
