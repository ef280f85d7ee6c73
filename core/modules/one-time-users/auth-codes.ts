/*
 * How a guest proves the invited address: the link (or the 16-character access code typed instead) names the
 * invitation, and a 6-digit code mailed to the address on request proves it. Codes live 10 minutes, a new request
 * replaces the previous one, and they are stored as HMACs under the master key. At most 5 code mails per invitation
 * an hour. Five wrong codes (these and the guest's signing codes, counted together on one_time_users) lock the
 * guest for 15 minutes; a wrong code is counted and committed before the refusal is sent.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { hashAccessCode, hashLinkToken } from './links.ts';
import { maskEmail, mailTime } from './model.ts';

export const AUTH_CODE_VALIDITY_MINUTES = 10;
export const AUTH_CODE_MAILS_PER_HOUR = 5;
export const GUEST_CODE_MAX_FAILURES = 5;
export const GUEST_CODE_LOCK_MINUTES = 15;

/** The invitation a link or access code names, with its one-time user (see resolveCredential). */
export interface CredentialInvitation {
  id: string;
  organization_id: string;
  business_flow_id: string;
  status: 'invited' | 'registered' | 'cancelled';
  link_expires_at: Date;
  one_time_user_id: string;
  user_name: string | null;
  user_email: string | null;
  user_locale: 'ja' | 'en';
  flow_name: string;
  workspace_id: string;
  owner_name: string;
}

export interface LinkCredential {
  token?: string;
  accessCode?: string;
}

/**
 * The live invitation of a link token or access code: 422 unless exactly one is given, 404 INVITATION_LINK_INVALID
 * when unknown or replaced, 410 INVITATION_CANCELLED / INVITATION_LINK_EXPIRED. `lock` locks the invitation row.
 */
export async function resolveCredential(
  trx: Knex,
  credential: LinkCredential,
  now: Date,
  options: { lock?: boolean; pointerBase?: string } = {},
): Promise<CredentialInvitation> {
  const { token, accessCode } = credential;
  const base = options.pointerBase ?? '/data/attributes';
  if ((token === undefined) === (accessCode === undefined)) {
    throw new AppError('VALIDATION_FAILED', { pointer: `${base}/token`, detail: 'give token or accessCode' });
  }
  const column = token !== undefined ? 'i.link_token_hash' : 'i.access_code_hash';
  const hash = token !== undefined ? hashLinkToken(token) : hashAccessCode(accessCode!);
  if (!hash) throw new AppError('INVITATION_LINK_INVALID');
  const query = trx('one_time_invitations as i')
    .join('one_time_users as u', 'u.id', 'i.one_time_user_id')
    .join('business_flows as f', 'f.id', 'i.business_flow_id')
    .join('organizations as o', 'o.id', 'f.organization_id')
    .where(column, hash)
    // A draft's invitation is not sent yet: its link leads nowhere until the flow is sent.
    .whereNot('f.status', 'draft')
    .first<CredentialInvitation | undefined>(
      'i.id',
      'i.organization_id',
      'i.business_flow_id',
      'i.status',
      'i.link_expires_at',
      'i.one_time_user_id',
      'u.name as user_name',
      'u.email as user_email',
      'u.locale as user_locale',
      'f.name as flow_name',
      'f.workspace_id',
      'o.name as owner_name',
    );
  if (options.lock) query.forUpdate('i');
  const invitation = await query;
  if (!invitation || !invitation.user_email || !invitation.link_expires_at) {
    throw new AppError('INVITATION_LINK_INVALID');
  }
  if (invitation.status === 'cancelled') throw new AppError('INVITATION_CANCELLED');
  if (invitation.link_expires_at.getTime() <= now.getTime()) throw new AppError('INVITATION_LINK_EXPIRED');
  return invitation;
}

const codeHash = (deps: Pick<CoreDeps, 'config'>, invitationId: string, code: string) =>
  createHmac('sha256', deps.config.masterKey).update(`one-time-auth-code:${invitationId}:${code}`).digest('hex');

interface GuestLockRow {
  id: string;
  code_failures: number;
  code_locked_until: Date | null;
}

/** 429 ONE_TIME_CODE_LOCKED (with minutes) while the guest is locked, else null. */
export function guestLock(user: GuestLockRow, now: Date): AppError | null {
  if (!user.code_locked_until || user.code_locked_until.getTime() <= now.getTime()) return null;
  const minutes = Math.ceil((user.code_locked_until.getTime() - now.getTime()) / 60_000);
  return new AppError('ONE_TIME_CODE_LOCKED', {
    params: { minutes },
    headers: { 'Retry-After': String(Math.ceil((user.code_locked_until.getTime() - now.getTime()) / 1000)) },
  });
}

/** Locks the one-time user's row (serialising every code check of the guest) and returns it. */
export async function lockGuest(trx: Knex.Transaction, oneTimeUserId: string): Promise<GuestLockRow> {
  return trx('one_time_users')
    .where({ id: oneTimeUserId })
    .forUpdate()
    .first('id', 'code_failures', 'code_locked_until');
}

/**
 * Counts one wrong code (an address code or a guest signing code) on the guest row locked by lockGuest; returns the
 * refusal to throw after the caller commits: ONE_TIME_CODE_LOCKED at the fifth, else `invalid` with what is left.
 */
export async function countWrongCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  user: GuestLockRow,
  organizationId: string,
  invalid: (remaining: number) => AppError,
): Promise<AppError> {
  const now = deps.clock.now();
  const failures = user.code_failures + 1;
  if (failures < GUEST_CODE_MAX_FAILURES) {
    await trx('one_time_users').where({ id: user.id }).update({ code_failures: failures });
    return invalid(GUEST_CODE_MAX_FAILURES - failures);
  }
  const until = new Date(now.getTime() + GUEST_CODE_LOCK_MINUTES * 60_000);
  await trx('one_time_users').where({ id: user.id }).update({ code_failures: 0, code_locked_until: until });
  await deps.oplog.append(trx, null, {
    action: 'one_time_user.locked',
    organizationId,
    targetType: 'one_time_user',
    targetId: user.id,
    details: { oneTimeUserId: user.id, until: until.toISOString() },
  });
  return guestLock({ ...user, code_locked_until: until }, now)!;
}

/** Mails a new 6-digit code for the invitation; the previous unused one dies. */
export async function sendAuthCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  invitation: CredentialInvitation,
  req: RequestContext,
): Promise<{ maskedEmail: string; expiresAt: Date }> {
  const now = deps.clock.now();
  const user = await lockGuest(trx, invitation.one_time_user_id);
  const locked = guestLock(user, now);
  if (locked) throw locked;
  const lastHour = await trx('one_time_auth_codes')
    .where({ invitation_id: invitation.id })
    .where('created_at', '>', new Date(now.getTime() - 3600_000))
    .orderBy('created_at', 'desc')
    .limit(AUTH_CODE_MAILS_PER_HOUR)
    .select('created_at');
  if (lastHour.length >= AUTH_CODE_MAILS_PER_HOUR) {
    const oldest = (lastHour[lastHour.length - 1]!.created_at as Date).getTime();
    const seconds = Math.max(1, Math.ceil((oldest + 3600_000 - now.getTime()) / 1000));
    throw new AppError('TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(seconds) } });
  }
  await trx('one_time_auth_codes')
    .where({ invitation_id: invitation.id })
    .whereNull('used_at')
    .update({ used_at: now });
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  const expiresAt = new Date(now.getTime() + AUTH_CODE_VALIDITY_MINUTES * 60_000);
  await trx('one_time_auth_codes').insert({
    invitation_id: invitation.id,
    code_hash: codeHash(deps, invitation.id, code),
    expires_at: expiresAt,
    created_at: now,
  });
  await deps.mailer.send(trx, {
    kind: 'one-time-auth-code',
    to: invitation.user_email!,
    locale: invitation.user_locale,
    params: {
      userName: invitation.user_name ?? '',
      organizationName: invitation.owner_name,
      businessFlowName: invitation.flow_name,
      code,
      minutes: String(AUTH_CODE_VALIDITY_MINUTES),
      expiresAt: mailTime(expiresAt),
    },
    organizationId: invitation.organization_id,
    userId: null,
  });
  await deps.oplog.append(trx, req, {
    action: 'one_time_user.code_sent',
    organizationId: invitation.organization_id,
    targetType: 'one_time_invitation',
    targetId: invitation.id,
    details: { oneTimeUserId: invitation.one_time_user_id, email: maskEmail(invitation.user_email!) },
  });
  return { maskedEmail: maskEmail(invitation.user_email!), expiresAt };
}

/**
 * Checks the 6-digit code of the invitation on the locked guest. Returns the code row's id, or the refusal to throw
 * AFTER the caller commits (so a wrong code stays counted).
 */
export async function checkAuthCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  invitation: CredentialInvitation,
  code: string,
): Promise<{ codeId: string } | { refusal: AppError }> {
  const now = deps.clock.now();
  const user = await lockGuest(trx, invitation.one_time_user_id);
  const locked = guestLock(user, now);
  if (locked) return { refusal: locked };
  const pointer = '/data/attributes/code';
  const row = await trx('one_time_auth_codes')
    .where({ invitation_id: invitation.id })
    .whereNull('used_at')
    .orderBy('created_at', 'desc')
    .first('id', 'code_hash', 'expires_at');
  if (!row) return { refusal: new AppError('ONE_TIME_CODE_INVALID', { pointer }) };
  if ((row.expires_at as Date).getTime() <= now.getTime()) {
    return { refusal: new AppError('ONE_TIME_CODE_EXPIRED', { pointer }) };
  }
  const typed = code.replace(/\s/g, '');
  const matches = timingSafeEqual(
    Buffer.from(codeHash(deps, invitation.id, typed)),
    Buffer.from(row.code_hash as string),
  );
  if (matches) {
    await trx('one_time_users').where({ id: user.id }).update({ code_failures: 0 });
    return { codeId: row.id as string };
  }
  const refusal = await countWrongCode(
    deps,
    trx,
    user,
    invitation.organization_id,
    (remaining) => new AppError('ONE_TIME_CODE_INVALID', { pointer, params: { remaining } }),
  );
  return { refusal };
}
