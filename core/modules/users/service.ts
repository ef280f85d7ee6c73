/*
 * Users of an organization, for the API handlers and the CSV batch import. Every function takes the caller's
 * transaction (the import runs each row in a savepoint: a thrown AppError leaves nothing behind), validates
 * everything first (AppError.invalid with pointers /data/attributes/<field>), then writes the rows, the operation
 * log and, for new users, the invitation job in that transaction.
 *
 *   createUser(deps, trx, actor, input: UserInput)                              -> { id }
 *   updateUser(deps, trx, actor, userId, patch: UserPatch)                      -> void  (lockVersion required)
 *   deleteUser(deps, trx, actor, userId)                                        -> void  (soft delete)
 *   changeUserState(deps, trx, actor, userId, change: UserStateChange, lockVersion) -> void
 *       change: 'deactivate' | 'reactivate' | 'lock' | 'unlock' | 'unblock-email'
 *   resendInvitation(deps, trx, actor, userId)                                  -> void
 *   provisionUser(deps, trx, input, req)        -> { id }  (single sign-on's just-in-time users, no password)
 *   findUserIdByLoginId(trx, organizationId, loginId) -> string | null   (CSV rows are keyed by login ID)
 *   blockUserEmail(trx, userId, now)                   (the mail transport calls this when an address bounces)
 *
 * UserInput.groups / roles are references as a CSV holds them: { id } | { name } | { systemLinkId }. A miss is
 * REFERENCE_NOT_FOUND at /data/attributes/groupIds/<index> (or roleIds/<index>).
 */
import type { Knex } from 'knex';
import { clearFailures } from '../../auth/throttle.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { Ref } from '../../db/named-rows.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError, type FieldError, type Locale } from '../../http/errors.ts';
import { replaceUserGroups, resolveGroupRefs } from '../groups/service.ts';
import { changeLogger } from '../logs/operation-log.ts';
import { replaceUserRoles, resolveRoleRefs } from '../roles/service.ts';
import { NO_PASSWORD, queueInvitation } from './invitation.ts';
import { UNIQUE_USER, type UserFields, uniquely, userFieldViolations, userPointer } from './validation.ts';

const log = changeLogger('user');

/** Who acts: the signed-in principal, or the CLI's administrator; `req` is null outside HTTP. */
export interface Actor {
  userId: string;
  organizationId: string;
  isAdmin: boolean;
  req: RequestContext | null;
  /** Set when the request authenticated with an API key: a key never grants or changes administrator rights. */
  viaApiKey?: boolean;
}

/** The Actor of a signed-in request. */
export function actorOf(principal: Principal, req: RequestContext): Actor {
  return {
    userId: principal.userId,
    organizationId: principal.organizationId,
    isAdmin: principal.isAdmin,
    req,
    ...(principal.apiKey ? { viaApiKey: true } : {}),
  };
}

/**
 * An API key may not make anyone an administrator, change an administrator's rights, nor redirect an
 * administrator's mail (a password reset sent there would take the account over): 403 API_KEY_NOT_ALLOWED.
 */
function assertKeyLeavesAdminsAlone(actor: Actor, wasAdmin: boolean, patch: Partial<UserInput>): void {
  if (!actor.viaApiKey) return;
  if (patch.isAdmin !== undefined && patch.isAdmin !== wasAdmin) {
    throw new AppError('API_KEY_NOT_ALLOWED', { pointer: userPointer('isAdmin') });
  }
  if (wasAdmin && (patch.email !== undefined || patch.subEmails !== undefined || patch.loginId !== undefined)) {
    throw new AppError('API_KEY_NOT_ALLOWED', {
      pointer: userPointer(
        patch.email !== undefined ? 'email' : patch.subEmails !== undefined ? 'subEmails' : 'loginId',
      ),
    });
  }
}

export type { Ref } from '../../db/named-rows.ts';

export interface UserInput extends UserFields {
  loginId: string;
  name: string;
  email: string;
  locale?: Locale;
  isAdmin?: boolean;
  groups: Ref[];
  roles?: Ref[];
}

export type UserPatch = Partial<UserInput> & { lockVersion: number };

export type UserStateChange = 'deactivate' | 'reactivate' | 'lock' | 'unlock' | 'unblock-email';

interface UserRow {
  id: string;
  login_id: string;
  email: string;
  is_owner: boolean;
  is_admin: boolean;
  status: 'active' | 'deactivated';
  locked_at: Date | null;
  email_blocked_at: Date | null;
  lock_version: number;
}

export async function findUserIdByLoginId(trx: Knex, organizationId: string, loginId: string) {
  const row = await trx('users')
    .where({ organization_id: organizationId, login_id: loginId, kind: 'person' })
    .whereNot({ status: 'deleted' })
    .first('id');
  return (row?.id as string | undefined) ?? null;
}

/** A live (not deleted) person of the actor's organization, row-locked; NOT_FOUND otherwise. */
async function lockedUser(trx: Knex.Transaction, organizationId: string, userId: string): Promise<UserRow> {
  if (!/^[0-9a-f-]{36}$/i.test(userId)) throw new AppError('NOT_FOUND');
  // An API key's service user changes only through its key (core/modules/api-keys).
  const row = await trx('users')
    .where({ id: userId, organization_id: organizationId, kind: 'person' })
    .whereNot({ status: 'deleted' })
    .forUpdate()
    .first();
  if (!row) throw new AppError('NOT_FOUND');
  return row as UserRow;
}

/** Field rules, uniqueness and references, all reported together. */
async function checkInput(trx: Knex, organizationId: string, input: Partial<UserInput>, exceptId?: string) {
  const problems: FieldError[] = userFieldViolations(input);
  if (input.loginId !== undefined && !problems.some((p) => p.pointer === userPointer('loginId'))) {
    const taken = trx('users').where({ login_id: input.loginId });
    if (exceptId) taken.whereNot({ id: exceptId });
    if (await taken.first('id')) problems.push({ code: 'LOGIN_ID_TAKEN', pointer: userPointer('loginId') });
  }
  if (input.systemLinkId) {
    const taken = trx('users').where({ organization_id: organizationId, system_link_id: input.systemLinkId });
    if (exceptId) taken.whereNot({ id: exceptId });
    if (await taken.first('id')) problems.push({ code: 'SYSTEM_LINK_ID_TAKEN', pointer: userPointer('systemLinkId') });
  }
  let groupIds: string[] | undefined;
  let roleIds: string[] | undefined;
  if (input.groups !== undefined) {
    const groups = await resolveGroupRefs(trx, organizationId, input.groups, userPointer('groupIds'));
    problems.push(...groups.problems);
    if (input.groups.length === 0) problems.push({ code: 'USER_GROUP_REQUIRED', pointer: userPointer('groupIds') });
    groupIds = groups.ids;
  }
  if (input.roles !== undefined) {
    const roles = await resolveRoleRefs(trx, organizationId, input.roles, userPointer('roleIds'));
    problems.push(...roles.problems);
    roleIds = roles.ids;
  }
  if (problems.length > 0) throw AppError.invalid(problems);
  return { groupIds, roleIds };
}

/** The columns a user's own fields map to (only those given). */
function columnsOf(input: Partial<UserInput>): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  if (input.loginId !== undefined) columns.login_id = input.loginId;
  if (input.name !== undefined) columns.name = input.name;
  if (input.email !== undefined) columns.email = input.email;
  if (input.subEmails !== undefined) columns.sub_emails = JSON.stringify(input.subEmails);
  if (input.mobilePhone !== undefined) columns.mobile_phone = input.mobilePhone || null;
  if (input.locale !== undefined) columns.locale = input.locale;
  if (input.isAdmin !== undefined) columns.is_admin = input.isAdmin;
  if (input.systemLinkId !== undefined) columns.system_link_id = input.systemLinkId || null;
  return columns;
}

export async function createUser(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, input: UserInput) {
  assertKeyLeavesAdminsAlone(actor, false, input);
  const { groupIds, roleIds } = await checkInput(trx, actor.organizationId, input);
  const now = deps.clock.now();
  const [user] = await uniquely(
    () =>
      trx('users')
        .insert({
          organization_id: actor.organizationId,
          ...columnsOf({ locale: 'ja', ...input }),
          password_hash: NO_PASSWORD,
          must_change_password: true,
          created_at: now,
          updated_at: now,
        })
        .returning('id'),
    UNIQUE_USER,
  );
  await replaceUserGroups(trx, user.id, groupIds!, userPointer('groupIds'), now);
  if (roleIds) await replaceUserRoles(trx, user.id, roleIds);
  await log(deps, trx, actor, 'user.created', user.id, {
    loginId: input.loginId,
    isAdmin: Boolean(input.isAdmin),
    groupIds,
    roleIds: roleIds ?? [],
  });
  await queueInvitation(deps, trx, user.id, actor.req);
  return { id: user.id as string };
}

/**
 * A user an identity provider vouched for, created just in time by single sign-on (plugins/sso through
 * ctx.users.provision): a member of one group, no usable password (NO_PASSWORD never verifies; the account screen's
 * reset can set one later) and no invitation mail; the operation log records `user.created` with `via`, no actor.
 */
export async function provisionUser(
  deps: Pick<CoreDeps, 'clock' | 'oplog'>,
  trx: Knex.Transaction,
  input: { organizationId: string; loginId: string; name: string; email: string; groupId: string; via: string },
  req: RequestContext | null,
): Promise<{ id: string }> {
  const { groupIds } = await checkInput(trx, input.organizationId, {
    loginId: input.loginId,
    name: input.name,
    email: input.email,
    groups: [{ id: input.groupId }],
  });
  const now = deps.clock.now();
  const [user] = await uniquely(
    () =>
      trx('users')
        .insert({
          organization_id: input.organizationId,
          ...columnsOf({ loginId: input.loginId, name: input.name, email: input.email, locale: 'ja' }),
          password_hash: NO_PASSWORD,
          must_change_password: false,
          created_at: now,
          updated_at: now,
        })
        .returning('id'),
    UNIQUE_USER,
  );
  await replaceUserGroups(trx, user.id, groupIds!, userPointer('groupIds'), now);
  await deps.oplog.append(trx, req, {
    action: 'user.created',
    organizationId: input.organizationId,
    actorUserId: null,
    targetType: 'user',
    targetId: user.id,
    details: { loginId: input.loginId, isAdmin: false, groupIds, roleIds: [], via: input.via },
  });
  return { id: user.id as string };
}

export async function updateUser(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  userId: string,
  patch: UserPatch,
) {
  const row = await lockedUser(trx, actor.organizationId, userId);
  assertLockVersion(row, patch.lockVersion);
  assertKeyLeavesAdminsAlone(actor, row.is_admin, patch);
  if (row.is_owner && patch.isAdmin === false)
    throw new AppError('OWNER_PROTECTED', { pointer: userPointer('isAdmin') });
  const { groupIds, roleIds } = await checkInput(trx, actor.organizationId, patch, userId);
  const now = deps.clock.now();
  const columns = columnsOf(patch);
  const changed = Object.entries(patch)
    .filter(([key, value]) => key !== 'lockVersion' && value !== undefined)
    .map(([key]) => key);
  // A new address has not bounced (yet).
  if (patch.email !== undefined && patch.email.toLowerCase() !== row.email.toLowerCase())
    columns.email_blocked_at = null;
  if (groupIds) await replaceUserGroups(trx, userId, groupIds, userPointer('groupIds'), now);
  if (roleIds) await replaceUserRoles(trx, userId, roleIds);
  await uniquely(
    () =>
      trx('users')
        .where({ id: userId })
        .update({ ...columns, updated_at: now, lock_version: trx.raw('lock_version + 1') }),
    UNIQUE_USER,
  );
  await log(deps, trx, actor, 'user.updated', userId, {
    changed,
    ...(groupIds ? { groupIds } : {}),
    ...(roleIds ? { roleIds } : {}),
  });
}

/** Yourself and the owner are out of reach of delete, deactivate and lock. */
function assertRemovable(actor: Actor, row: UserRow) {
  if (row.id === actor.userId) throw new AppError('USER_IS_SELF');
  if (row.is_owner) throw new AppError('OWNER_PROTECTED');
}

async function revokeSessions(trx: Knex.Transaction, userId: string, reason: string, now: Date) {
  await trx('auth_sessions').where({ user_id: userId }).whereNull('revoked_at').update({
    revoked_at: now,
    revoked_reason: reason,
  });
}

/**
 * Soft delete: the row stays (status 'deleted') for the audit trail and keeps its login ID; memberships and roles
 * go, sessions end, and nothing lists or finds it any more.
 */
export async function deleteUser(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, userId: string) {
  const row = await lockedUser(trx, actor.organizationId, userId);
  assertRemovable(actor, row);
  const now = deps.clock.now();
  await trx('group_members').where({ user_id: userId }).delete();
  await trx('user_roles').where({ user_id: userId }).delete();
  await trx('users')
    .where({ id: userId })
    .update({
      status: 'deleted',
      deleted_at: now,
      invitation_id: null,
      password_hash: NO_PASSWORD,
      updated_at: now,
      lock_version: trx.raw('lock_version + 1'),
    });
  await revokeSessions(trx, userId, 'user-deleted', now);
  await log(deps, trx, actor, 'user.deleted', userId, { loginId: row.login_id });
}

export async function changeUserState(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  userId: string,
  change: UserStateChange,
  lockVersion: number,
) {
  const row = await lockedUser(trx, actor.organizationId, userId);
  assertLockVersion(row, lockVersion);
  const now = deps.clock.now();
  const columns: Record<string, unknown> = {};
  if (change === 'deactivate' || change === 'lock') {
    assertRemovable(actor, row);
    if (change === 'deactivate') columns.status = 'deactivated';
    else columns.locked_at = row.locked_at ?? now;
    await revokeSessions(trx, userId, change === 'lock' ? 'user-locked' : 'user-deactivated', now);
  } else if (change === 'reactivate') {
    columns.status = 'active';
  } else if (change === 'unlock') {
    columns.locked_at = null;
    await clearFailures(trx, row.login_id);
  } else {
    columns.email_blocked_at = null;
  }
  await trx('users')
    .where({ id: userId })
    .update({ ...columns, updated_at: now, lock_version: trx.raw('lock_version + 1') });
  const action = {
    deactivate: 'user.deactivated',
    reactivate: 'user.reactivated',
    lock: 'user.locked',
    unlock: 'user.unlocked',
    'unblock-email': 'user.email_unblocked',
  }[change];
  await log(deps, trx, actor, action, userId, { loginId: row.login_id });
}

/** A new temporary password by mail; the job replaces whatever password the user had. */
export async function resendInvitation(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, userId: string) {
  const row = await lockedUser(trx, actor.organizationId, userId);
  await queueInvitation(deps, trx, userId, actor.req);
  await log(deps, trx, actor, 'user.invitation_requested', userId, { loginId: row.login_id });
}

/** Marks a user's address undeliverable (a bounce); the Mailer then skips mail to it. */
export async function blockUserEmail(trx: Knex, userId: string, now: Date): Promise<void> {
  await trx('users').where({ id: userId }).whereNull('email_blocked_at').update({ email_blocked_at: now });
}
