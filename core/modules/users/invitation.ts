import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { loadPasswordPolicy, temporaryPasswordFor } from '../../auth/password-policy.ts';
import { hashPassword } from '../../auth/passwords.ts';
import type { CoreDeps } from '../../deps.ts';
import type { RequestContext } from '../../http/context.ts';
import { lockImports } from '../batch/import-lock.ts';

/** The job that sets a temporary password and mails the invitation (argon2 and SMTP stay out of the request). */
export const USER_INVITE_JOB = 'users.invite';

/** How long a temporary password works (the spec does not say; a week covers a holiday). */
export const TEMPORARY_PASSWORD_TTL_MS = 7 * 24 * 60 * 60_000;

/** Stands in for a password hash until the job sets one: argon2 can never verify against it. */
export const NO_PASSWORD = '!invitation-pending';

interface InvitationJob {
  userId: string;
  invitationId: string;
  origin: { ip: string; userAgent: string; traceId: string } | null;
}

/**
 * Marks a user as awaiting a (new) temporary password and queues the job in the caller's transaction. Only the
 * newest invitation counts: the job of an earlier one finds another id on the row and does nothing.
 */
export async function queueInvitation(
  deps: CoreDeps,
  trx: Knex.Transaction,
  userId: string,
  req: RequestContext | null,
): Promise<string> {
  const invitationId = randomUUID();
  await trx('users').where({ id: userId }).update({ invitation_id: invitationId });
  const origin = req ? { ip: req.ip, userAgent: req.userAgent, traceId: req.traceId } : null;
  await deps.jobs.send<InvitationJob>(USER_INVITE_JOB, { userId, invitationId, origin }, { trx, id: invitationId });
  return invitationId;
}

/** Registers the invitation job's handler; call before the job queue starts. */
export function registerInvitationJob(deps: CoreDeps): void {
  deps.jobs.register<InvitationJob>(USER_INVITE_JOB, (job) => sendInvitation(deps, job.data), { retryLimit: 5 });
}

async function sendInvitation(deps: CoreDeps, { userId, invitationId, origin }: InvitationJob): Promise<void> {
  const { knex, clock, config, mailer, oplog, logger } = deps;
  const user = await knex('users as u')
    .join('organizations as o', 'o.id', 'u.organization_id')
    .where('u.id', userId)
    .first(
      'u.id',
      'u.organization_id',
      'u.login_id',
      'u.name',
      'u.email',
      'u.locale',
      'u.status',
      'u.invitation_id',
      'o.name as organization',
    );
  // A newer invitation, a deleted user, or a retry after this one committed: nothing to do.
  if (!user || user.invitation_id !== invitationId || user.status === 'deleted') return;
  const policy = await loadPasswordPolicy(knex, user.organization_id);
  const temporaryPassword = temporaryPasswordFor(policy, user.login_id);
  const hash = await hashPassword(temporaryPassword);
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + TEMPORARY_PASSWORD_TTL_MS);
  const req: RequestContext | null = origin
    ? { ...origin, locale: user.locale, log: logger.child({ job: USER_INVITE_JOB }), principal: null }
    : null;
  await knex.transaction(async (trx) => {
    await lockImports(trx, user.organization_id, 'invitation');
    const updated = await trx('users').where({ id: userId, invitation_id: invitationId }).update({
      password_hash: hash,
      must_change_password: true,
      temporary_password_expires_at: expiresAt,
      invitation_id: null,
      invited_at: now,
    });
    if (updated === 0) return;
    // Whoever held the old password is signed out everywhere.
    await trx('auth_sessions')
      .where({ user_id: userId })
      .whereNull('revoked_at')
      .update({ revoked_at: now, revoked_reason: 'invitation' });
    await oplog.append(trx, req, {
      action: 'user.invitation_sent',
      organizationId: user.organization_id,
      targetType: 'user',
      targetId: userId,
      details: { invitationId, temporaryPasswordExpiresAt: expiresAt.toISOString() },
    });
    await mailer.send(trx, {
      kind: 'user-invitation',
      to: user.email,
      locale: user.locale,
      params: {
        userName: user.name,
        organizationName: user.organization,
        loginId: user.login_id,
        temporaryPassword,
        expiresAt: expiresAt.toISOString(),
        link: `${config.publicUrl}/login`,
      },
      organizationId: user.organization_id,
      userId,
    });
  });
}
