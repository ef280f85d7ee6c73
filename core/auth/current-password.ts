import type { CoreDeps } from '../deps.ts';
import type { RequestContext } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { verifyPassword } from './passwords.ts';
import { clearFailures, recordFailure, reserveAttempt } from './throttle.ts';
import type { AuthUser } from './users.ts';

/**
 * Checks a signed-in user's current password under the sign-in lock of their login ID (core/auth/throttle.ts): the
 * check is reserved before it runs, a wrong password counts like a failed sign-in and the fifth locks the ID
 * (sign-in included) for 15 minutes, a right one clears the count. A stolen session so gets no more guesses at the
 * password than the sign-in form gives. Runs outside any transaction, so a failure stays counted.
 */
export async function verifyCurrentPassword(
  deps: CoreDeps,
  user: Pick<AuthUser, 'id' | 'organization_id' | 'login_id' | 'password_hash'>,
  password: string,
  req: RequestContext,
): Promise<void> {
  const { knex, clock, oplog } = deps;
  const attempt = await reserveAttempt(knex, user.login_id, clock.now());
  if (await verifyPassword(user.password_hash, password)) {
    await clearFailures(knex, user.login_id);
    return;
  }
  const lock = await recordFailure(knex, attempt, clock.now());
  await oplog.record(knex, req, {
    action: lock ? 'auth.locked' : 'auth.current_password_failed',
    organizationId: user.organization_id,
    actorUserId: user.id,
    details: { loginId: user.login_id },
  });
  throw lock ?? new AppError('CURRENT_PASSWORD_WRONG', { pointer: '/data/attributes/currentPassword' });
}
