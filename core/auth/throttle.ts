/*
 * The lock of a login ID after failed password checks. Every check is reserved BEFORE the password is verified, in
 * one atomic statement that also refuses once the ID is locked or its budget is taken: a reserved check counts as a
 * failure until a success clears the row. So however many requests arrive at once (one process or many, PostgreSQL
 * or PGlite), at most MAX_FAILURES password checks run for a login ID per window, and a right password that arrives
 * after the budget is spent is refused like a wrong one.
 */
import type { Knex } from 'knex';
import { AppError } from '../http/errors.ts';

/** Consecutive failures that lock a login ID, and for how long. */
export const MAX_FAILURES = 5;
export const LOCK_MS = 15 * 60_000;

/** Failures count as consecutive while each comes within this window of the previous one. */
export const FAILURE_WINDOW_MS = LOCK_MS;

/** A password check the throttle let through: settle it with {@link recordFailure} or {@link clearFailures}. */
export interface Attempt {
  loginId: string;
  /** Its place among the counted failures: the one at MAX_FAILURES locks the ID when it fails. */
  number: number;
}

function locked(lockedUntil: Date, now: Date): AppError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return new AppError('ACCOUNT_LOCKED', { headers: { 'Retry-After': String(seconds) } });
}

/**
 * Counts one password check for the login ID before it runs, or throws ACCOUNT_LOCKED (while locked, or while the
 * checks already under way use up the budget). Known and unknown IDs behave the same.
 */
export async function reserveAttempt(knex: Knex, loginId: string, now: Date): Promise<Attempt> {
  const windowStart = new Date(now.getTime() - FAILURE_WINDOW_MS);
  // A lapsed lock, or a quiet spell longer than the window, starts the count again.
  const fresh = `(t.locked_until IS NOT NULL AND t.locked_until <= ?) OR (t.locked_until IS NULL AND t.last_failed_at < ?)`;
  // The WHERE of DO UPDATE is decided under the row's lock: a refused reservation changes nothing and returns no row.
  const { rows } = await knex.raw(
    `INSERT INTO sign_in_throttles AS t (login_id, failure_count, last_failed_at)
     VALUES (?, 1, ?)
     ON CONFLICT (login_id) DO UPDATE SET
       failure_count = CASE WHEN ${fresh} THEN 1 ELSE t.failure_count + 1 END,
       locked_until = NULL,
       last_failed_at = EXCLUDED.last_failed_at
     WHERE ${fresh} OR (t.locked_until IS NULL AND t.failure_count < ?)
     RETURNING failure_count`,
    [loginId, now, now, windowStart, now, windowStart, MAX_FAILURES],
  );
  if (rows.length > 0) return { loginId, number: rows[0].failure_count as number };
  const row = await knex('sign_in_throttles').where({ login_id: loginId }).first('locked_until');
  // No lock yet means the last checks of the budget are still running; if they all fail the lock starts now.
  throw locked(row?.locked_until ?? new Date(now.getTime() + LOCK_MS), now);
}

/** Settles a failed check; returns the lock error when it was the last of the budget and so locked the ID. */
export async function recordFailure(knex: Knex, attempt: Attempt, now: Date): Promise<AppError | null> {
  if (attempt.number < MAX_FAILURES) return null;
  const lockUntil = new Date(now.getTime() + LOCK_MS);
  // A success that came in meanwhile deleted the row: then nothing is locked.
  const updated = await knex('sign_in_throttles')
    .where({ login_id: attempt.loginId })
    .whereNull('locked_until')
    .where('failure_count', '>=', MAX_FAILURES)
    .update({ locked_until: lockUntil });
  return updated > 0 ? locked(lockUntil, now) : null;
}

/** A success (or an administrator's unlock, or a password reset) forgets the failures. */
export async function clearFailures(knex: Knex, loginId: string): Promise<void> {
  await knex('sign_in_throttles').where({ login_id: loginId }).delete();
}
