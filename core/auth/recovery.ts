import type { Knex } from 'knex';
import type { CoreDeps } from '../deps.ts';
import type { RequestContext } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { changePassword } from './password-change.ts';
import type { Sessions } from './sessions.ts';
import { clearFailures } from './throttle.ts';
import { hashOpaqueToken, newOpaqueToken } from './tokens.ts';
import { findUserById } from './users.ts';

/** A reset link works once, for this long. */
export const RESET_LINK_TTL_MS = 30 * 60_000;

/** The job that looks the account up and mails it, so the request itself costs the same for any input. */
export const RECOVERY_JOB = 'auth.recovery';

type RecoveryRequest =
  | { kind: 'password-reset'; loginId: string; email: string; origin: Origin }
  | { kind: 'user-id-reminder'; email: string; origin: Origin };

interface Origin {
  ip: string;
  userAgent: string;
  traceId: string;
  locale: RequestContext['locale'];
}

/**
 * Forgot-password and user-ID reminder. The request only queues a job: the answer (202) and its timing are the same
 * whether or not an account matches, and the job does the lookup, the link and the mail.
 */
export class AccountRecovery {
  constructor(
    private readonly deps: CoreDeps,
    private readonly sessions: Sessions,
  ) {
    deps.jobs.register<RecoveryRequest>(RECOVERY_JOB, (job) => this.handle(job.id, job.data), { retryLimit: 5 });
  }

  async requestPasswordReset(input: { loginId: string; email: string }, req: RequestContext): Promise<void> {
    await this.deps.jobs.send(RECOVERY_JOB, { kind: 'password-reset', ...input, origin: originOf(req) });
  }

  async remindUserId(input: { email: string }, req: RequestContext): Promise<void> {
    await this.deps.jobs.send(RECOVERY_JOB, { kind: 'user-id-reminder', ...input, origin: originOf(req) });
  }

  private async handle(jobId: string, request: RecoveryRequest): Promise<void> {
    const { origin } = request;
    const req: RequestContext = {
      ...origin,
      log: this.deps.logger.child({ traceId: origin.traceId, job: RECOVERY_JOB }),
      principal: null,
    };
    if (request.kind === 'password-reset') await this.mailResetLink(jobId, request, req);
    else await this.mailUserIds(request, req);
  }

  private async mailResetLink(jobId: string, input: { loginId: string; email: string }, req: RequestContext) {
    const { knex, clock, config, mailer, oplog } = this.deps;
    const user = await knex('users')
      .where({ login_id: input.loginId, status: 'active', kind: 'person' }) // never a service user (API key)
      .whereRaw('lower(email) = lower(?)', [input.email])
      .first('id', 'organization_id', 'name', 'email', 'locale');
    if (!user) {
      req.log.info('password reset requested for no matching account');
      return;
    }
    const now = clock.now();
    const token = newOpaqueToken();
    await knex.transaction(async (trx) => {
      // The link's id is the job's: a retry after a commit finds it and sends nothing twice.
      if (await trx('password_reset_tokens').where({ id: jobId }).first('id')) return;
      // A new link makes the earlier ones useless.
      await trx('password_reset_tokens').where({ user_id: user.id }).whereNull('used_at').update({ used_at: now });
      await trx('password_reset_tokens').insert({
        id: jobId,
        user_id: user.id,
        token_hash: hashOpaqueToken(token),
        created_at: now,
        expires_at: new Date(now.getTime() + RESET_LINK_TTL_MS),
      });
      await oplog.append(trx, req, {
        action: 'auth.password_reset_requested',
        organizationId: user.organization_id,
        actorUserId: user.id,
        targetType: 'user',
        targetId: user.id,
      });
      await mailer.send(trx, {
        kind: 'password-reset',
        to: user.email,
        locale: user.locale,
        params: {
          name: user.name,
          minutes: String(RESET_LINK_TTL_MS / 60_000),
          link: `${config.publicUrl}/forget-password/reset?token=${encodeURIComponent(token)}`,
        },
        organizationId: user.organization_id,
        userId: user.id,
      });
    });
  }

  /** Whether a reset link can still be used; checking does not spend it. */
  async verifyResetToken(token: string): Promise<void> {
    const link = await this.liveLink(this.deps.knex, token);
    if (!link) throw new AppError('PASSWORD_RESET_LINK_INVALID');
  }

  /** The unused, unexpired link a token names, with its active user; null otherwise. */
  private async liveLink(knex: Knex, token: string, lock = false) {
    const query = knex('password_reset_tokens as t')
      .join('users as u', 'u.id', 't.user_id')
      .where({ 't.token_hash': hashOpaqueToken(token), 'u.status': 'active', 'u.kind': 'person' })
      .whereNull('t.used_at')
      .where('t.expires_at', '>', this.deps.clock.now());
    if (lock) query.forUpdate();
    return (await query.first('t.id', 't.user_id')) ?? null;
  }

  async resetPassword(
    input: { token: string; password: string; passwordConfirmation: string },
    req: RequestContext,
  ): Promise<void> {
    const { knex, clock } = this.deps;
    const now = clock.now();
    await knex.transaction(async (trx) => {
      const link = await this.liveLink(trx, input.token, true);
      const user = link ? await findUserById(trx, link.user_id) : null;
      if (!link || !user) throw new AppError('PASSWORD_RESET_LINK_INVALID');
      await changePassword(this.deps, trx, user, input, req, 'auth.password_reset');
      await trx('password_reset_tokens').where({ id: link.id }).update({ used_at: now });
      await this.sessions.revokeAllOf(trx, user.id, 'password-reset');
      // Proving control of the mailbox also lifts a lock.
      await clearFailures(trx, user.login_id);
    });
  }

  private async mailUserIds(input: { email: string }, req: RequestContext): Promise<void> {
    const { knex, config, mailer, oplog } = this.deps;
    const users = await knex('users')
      .where({ status: 'active', kind: 'person' })
      .whereRaw('lower(email) = lower(?)', [input.email])
      .orderBy('login_id')
      .select('id', 'organization_id', 'login_id', 'email', 'locale');
    if (users.length === 0) {
      req.log.info('user ID reminder requested for an unknown address');
      return;
    }
    await knex.transaction(async (trx) => {
      await mailer.send(trx, {
        kind: 'user-id-reminder',
        to: users[0].email,
        locale: users[0].locale,
        params: { loginIds: users.map((u) => u.login_id).join('\n'), link: `${config.publicUrl}/login` },
        organizationId: users.length === 1 ? users[0].organization_id : null,
        userId: users.length === 1 ? users[0].id : null,
      });
      for (const user of users) {
        await oplog.append(trx, req, {
          action: 'auth.user_id_reminded',
          organizationId: user.organization_id,
          actorUserId: user.id,
          targetType: 'user',
          targetId: user.id,
        });
      }
    });
  }
}

function originOf(req: RequestContext): Origin {
  return { ip: req.ip, userAgent: req.userAgent, traceId: req.traceId, locale: req.locale };
}
