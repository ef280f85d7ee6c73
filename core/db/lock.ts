import type { Knex } from 'knex';
import { AppError } from '../http/errors.ts';

/**
 * Updates one organization-owned row only if its `lock_version` is still the one the client read, and bumps it.
 * A row of another organization is NOT_FOUND (never revealed); a stale version is 409 UPDATED_BY_ANOTHER_USER.
 */
export async function updateWithLock<Row = Record<string, unknown>>(
  trx: Knex.Transaction,
  table: string,
  where: { id: string; organization_id: string },
  lockVersion: number,
  patch: Record<string, unknown>,
): Promise<Row> {
  const [updated] = await trx(table)
    .where({ ...where, lock_version: lockVersion })
    .update({ ...patch, lock_version: trx.raw('lock_version + 1') })
    .returning('*');
  if (updated) return updated as Row;
  const exists = await trx(table).where(where).first('id');
  throw new AppError(exists ? 'UPDATED_BY_ANOTHER_USER' : 'NOT_FOUND');
}

/** Reads one organization-owned row for update (row lock), or throws NOT_FOUND. */
export async function lockedRow<Row = Record<string, unknown>>(
  trx: Knex.Transaction,
  table: string,
  where: { id: string; organization_id: string },
): Promise<Row> {
  const row = await trx(table).where(where).forUpdate().first();
  if (!row) throw new AppError('NOT_FOUND');
  return row as Row;
}

/** Throws 409 UPDATED_BY_ANOTHER_USER when the client's lockVersion is not the row's. */
export function assertLockVersion(row: { lock_version: number }, lockVersion: number): void {
  if (row.lock_version !== lockVersion) throw new AppError('UPDATED_BY_ANOTHER_USER');
}
