/*
 * The account screen's own operations (every signed-in user, for themselves): name, language and the mobile number
 * SMS codes go to (updateMe), and the user's sign-in sessions — list them, sign out one or every other one.
 *
 * Sessions are the rows of auth_sessions (one per sign-in, the refresh-token family, core/auth/sessions.ts). Ending
 * one sets its revoked_at as sign-out does: every request reads the session row with the token (the principal
 * query), so its access token is refused from the next request (401 SESSION_REVOKED) and its refresh tokens no
 * longer refresh.
 */
import type { Knex } from 'knex';
import { IDLE_TIMEOUT_MS, type Sessions } from '../../auth/sessions.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { mobileNumber } from '../../signing/sms.ts';
import { NAME_MAX, userPointer } from './validation.ts';

export interface MePatch {
  lockVersion: number;
  name?: string;
  locale?: 'ja' | 'en';
  mobilePhone?: string | null;
}

/** The columns a patch changes, or the field errors that refuse it (all reported at once). */
function columnsOfPatch(patch: MePatch): { columns: Record<string, unknown>; changed: string[] } {
  const problems: FieldError[] = [];
  const columns: Record<string, unknown> = {};
  if (patch.name !== undefined) {
    const name = patch.name.trim();
    if (name === '' || [...name].length > NAME_MAX) {
      problems.push({ code: 'VALIDATION_FAILED', pointer: userPointer('name') });
    } else columns.name = name;
  }
  if (patch.locale !== undefined) columns.locale = patch.locale;
  if (patch.mobilePhone !== undefined) {
    const raw = patch.mobilePhone?.trim() ?? '';
    if (raw === '') columns.mobile_phone = null;
    else {
      // The same check the SMS code uses (core/signing/sms.ts): a number it would refuse is no use here.
      const digits = mobileNumber(raw);
      if (digits) columns.mobile_phone = digits;
      else problems.push({ code: 'SMS_MOBILE_PHONE_INVALID', pointer: userPointer('mobilePhone') });
    }
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  const changed = Object.keys(patch).filter(
    (key) => key !== 'lockVersion' && patch[key as keyof MePatch] !== undefined,
  );
  return { columns, changed };
}

/** Applies the caller's own patch under the optimistic lock; logs `user.updated_self`. */
export async function updateMe(deps: CoreDeps, principal: Principal, patch: MePatch, req: RequestContext) {
  const { columns, changed } = columnsOfPatch(patch);
  await deps.knex.transaction(async (trx) => {
    const row = await trx('users').where({ id: principal.userId }).forUpdate().first('id', 'lock_version');
    if (!row) throw new AppError('NOT_FOUND');
    assertLockVersion(row, patch.lockVersion);
    await trx('users')
      .where({ id: principal.userId })
      .update({ ...columns, updated_at: deps.clock.now(), lock_version: trx.raw('lock_version + 1') });
    await deps.oplog.append(trx, req, {
      action: 'user.updated_self',
      organizationId: principal.organizationId,
      actorUserId: principal.userId,
      targetType: 'user',
      targetId: principal.userId,
      details: { changed },
    });
  });
}

interface SessionRow {
  id: string;
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  last_used_at: Date;
}

/** The user's live sessions: not ended, and used within the idle timeout (an idler one can no longer refresh). */
function liveSessions(knex: Knex, userId: string, now: Date) {
  return knex('auth_sessions')
    .where({ user_id: userId })
    .whereNull('revoked_at')
    .where('last_used_at', '>', new Date(now.getTime() - IDLE_TIMEOUT_MS));
}

/** Binds listMySessions, signOutOtherSessions and signOutSession. */
export function accountRoutes(api: ApiRouter, deps: CoreDeps, sessions: Sessions): void {
  const { knex, clock } = deps;

  api.operation('listMySessions', async ({ principal }) => {
    const rows: SessionRow[] = await liveSessions(knex, principal.userId, clock.now())
      .orderBy([
        { column: 'last_used_at', order: 'desc' },
        { column: 'created_at', order: 'desc' },
      ])
      .limit(200)
      .select('id', 'user_agent', 'ip', 'created_at', 'last_used_at');
    return {
      body: {
        data: rows.map((row) => ({
          type: 'Session' as const,
          id: row.id,
          attributes: {
            userAgent: row.user_agent,
            ip: row.ip,
            createdAt: row.created_at.toISOString(),
            lastUsedAt: row.last_used_at.toISOString(),
            current: row.id === principal.sessionId,
          },
        })),
      },
    };
  });

  api.operation('signOutOtherSessions', async ({ principal, req }) => {
    await knex.transaction(async (trx) => {
      const others: { id: string }[] = await trx('auth_sessions')
        .where({ user_id: principal.userId })
        .whereNull('revoked_at')
        .whereNot({ id: principal.sessionId })
        .forUpdate()
        .select('id');
      for (const { id } of others) await sessions.revoke(trx, id, 'signed-out-by-user');
      await deps.oplog.append(trx, req, {
        action: 'auth.other_sessions_signed_out',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'session',
        targetId: principal.sessionId,
        details: { count: others.length },
      });
    });
    return { status: 204 };
  });

  api.operation('signOutSession', async ({ principal, params, req }) => {
    const { sessionId } = params;
    await knex.transaction(async (trx) => {
      // Another user's session is as unknown as a made-up ID.
      const row = await trx('auth_sessions')
        .where({ id: sessionId, user_id: principal.userId })
        .whereNull('revoked_at')
        .forUpdate()
        .first('id');
      if (!row) throw new AppError('NOT_FOUND');
      await sessions.revoke(trx, sessionId, 'signed-out-by-user');
      await deps.oplog.append(trx, req, {
        action: 'auth.session_signed_out',
        organizationId: principal.organizationId,
        actorUserId: principal.userId,
        targetType: 'session',
        targetId: sessionId,
        details: { current: sessionId === principal.sessionId },
      });
    });
    return { status: 204 };
  });
}
