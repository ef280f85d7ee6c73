import type { Knex } from 'knex';
import { AppError } from '../http/errors.ts';

/** Consecutive failures that lock a login ID, and for how long. */
export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;

function locked(lockedUntil: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return new AppError('ACCOUNT_LOCKED', { headers: { 'Retry-After': String(seconds) } });
}

/** Throws ACCOUNT_LOCKED while the login ID is locked. Known and unknown IDs behave the same. */
export async function assertNotLocked(knex: Knex, loginId: string, now: Date): Promise<void> {
  const row = await knex('sign_in_throttles').where({ login_id: loginId }).first('locked_until');
  if (row?.locked_until && row.locked_until > now) throw locked(row.locked_until, now);
}

/** Failures count as consecutive while each comes within this window of the previous one. */
export const FAILURE_WINDOW_MS = LOCK_MS;

/** Counts one failure; returns the lock error when this failure locked the ID. */
export async function recordFailure(knex: Knex, loginId: string, now: Date): Promise<AppError | null> {
  const lockUntil = new Date(now.getTime() + LOCK_MS);
  const windowStart = new Date(now.getTime() - FAILURE_WINDOW_MS);
  // A lapsed lock, or a quiet spell longer than the window, starts the count again.
  const fresh = `(sign_in_throttles.locked_until IS NOT NULL AND sign_in_throttles.locked_until <= ?)
                 OR (sign_in_throttles.locked_until IS NULL AND sign_in_throttles.last_failed_at < ?)`;
  const { rows } = await knex.raw(
    `INSERT INTO sign_in_throttles (login_id, failure_count, last_failed_at)
     VALUES (?, 1, ?)
     ON CONFLICT (login_id) DO UPDATE SET
       failure_count = CASE WHEN ${fresh} THEN 1 ELSE sign_in_throttles.failure_count + 1 END,
       locked_until = CASE WHEN ${fresh} THEN NULL ELSE sign_in_throttles.locked_until END,
       last_failed_at = EXCLUDED.last_failed_at
     RETURNING failure_count`,
    [loginId, now, now, windowStart, now, windowStart],
  );
  const count = rows[0].failure_count as number;
  if (count < MAX_FAILURES) return null;
  await knex('sign_in_throttles').where({ login_id: loginId }).update({ locked_until: lockUntil });
  return locked(lockUntil, now);
}

/** A success (or an administrator's unlock) forgets the failures. */
export async function clearFailures(knex: Knex, loginId: string): Promise<void> {
  await knex('sign_in_throttles').where({ login_id: loginId }).delete();
}
