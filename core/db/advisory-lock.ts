import type { Knex } from 'knex';
import { onPostgresServer } from './prepared-client.ts';

/**
 * Runs `work` only if no other process is running the work of the same name: periodic work (the hourly long-term
 * renewals, the orphan blob sweep) that every worker process schedules runs in one of them at a time, under a
 * PostgreSQL session advisory lock taken without waiting (`pg_try_advisory_lock`) on a connection held for the run.
 * Answers `{ ran: false }` when another process holds it: that process is doing the same work right now, and the
 * next tick here tries again. A crashed holder's lock goes with its connection. The embedded PGlite has one process:
 * the work always runs.
 */
export async function exclusively<T>(
  knex: Knex,
  name: string,
  work: () => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  if (!onPostgresServer(knex)) return { ran: true, result: await work() };
  const connection = await knex.client.acquireConnection();
  try {
    const { rows } = (await connection.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [
      `keiyaku:${name}`,
    ])) as { rows: { locked: boolean }[] };
    if (!rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, result: await work() };
    } finally {
      await connection.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [`keiyaku:${name}`]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
