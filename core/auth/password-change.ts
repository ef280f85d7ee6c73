import type { Knex } from 'knex';
import type { CoreDeps } from '../deps.ts';
import type { RequestContext } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import {
  confirmationViolation,
  historyViolation,
  loadPasswordPolicy,
  passwordRuleViolations,
} from './password-policy.ts';
import { hashPassword } from './passwords.ts';
import { type AuthUser, storePassword } from './users.ts';

/**
 * Applies every password rule of the user's organization (shape, confirmation, current, history), then stores
 * the new password, logs the change and tells the user by mail — all in the caller's transaction.
 */
export async function changePassword(
  deps: CoreDeps,
  trx: Knex.Transaction,
  user: AuthUser,
  input: { password: string; passwordConfirmation: string },
  req: RequestContext,
  action = 'auth.password_changed',
): Promise<void> {
  const policy = await loadPasswordPolicy(trx, user.organization_id);
  const shape = [
    ...passwordRuleViolations(input.password, user.login_id, policy),
    ...confirmationViolation(input.password, input.passwordConfirmation),
  ];
  if (shape.length > 0) throw AppError.invalid(shape);
  const history = await historyViolation(trx, user, input.password, policy);
  if (history.length > 0) throw AppError.invalid(history);
  const now = deps.clock.now();
  await storePassword(trx, user.id, await hashPassword(input.password), now);
  await deps.oplog.append(trx, req, {
    action,
    organizationId: user.organization_id,
    actorUserId: req.principal?.userId ?? user.id,
    targetType: 'user',
    targetId: user.id,
  });
  await deps.mailer.send(trx, {
    kind: 'password-changed',
    to: user.email,
    locale: user.locale,
    params: { name: user.name, at: now.toISOString() },
    organizationId: user.organization_id,
    userId: user.id,
  });
}
