/*
 * Groups and their members. Every function takes the caller's transaction (the CSV import runs each row in a
 * savepoint) and an Actor (core/modules/users/service.ts), validates, writes, and appends the operation log:
 *
 *   createGroup(deps, trx, actor, { name, systemLinkId? })                       -> { id }
 *   updateGroup(deps, trx, actor, groupId, { lockVersion, name?, systemLinkId? }) -> void
 *   deleteGroup(deps, trx, actor, groupId)                                        -> void
 *   (members: addGroupMember, setGroupAdmin, removeGroupMember live in ./members.ts)
 *   resolveGroupRefs(trx, organizationId, refs, pointer)  -> { ids, problems }  (refs by id, name or systemLinkId)
 *   replaceUserGroups(trx, organizationId, userId, groupIds, pointer)  (used by users' create/update)
 *   createDefaultGroup(trx, organizationId, name, ownerId)             (sign-up)
 *   administersGroup(knex, userId, groupId?) -> boolean  (a group admin of that group, or of any group)
 *
 * Errors: NOT_FOUND, GROUP_NAME_TAKEN, SYSTEM_LINK_ID_TAKEN, GROUP_LIMIT, GROUP_IN_USE,
 * GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP, GROUP_ADMIN_CANNOT_BE_REMOVED, USER_LAST_GROUP, USER_GROUP_REQUIRED,
 * ALREADY_GROUP_MEMBER, REFERENCE_NOT_FOUND, FUNCTION_NOT_PERMITTED, UPDATED_BY_ANOTHER_USER.
 */
import type { Knex } from 'knex';
import { PLAN_LIMITS } from '../../access/plans.ts';
import { lockedRow, updateWithLock } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { assertBelowPlanLimit, assertNamedRow, type Ref, resolveRefs } from '../../db/named-rows.ts';
import { changeLogger } from '../logs/operation-log.ts';
import type { Actor } from '../users/service.ts';
import { UNIQUE_GROUP, uniquely } from '../users/validation.ts';
import { groupUsages } from './usages.ts';

export interface GroupInput {
  name: string;
  systemLinkId?: string | null;
}

/** Resolves group references (id, name or system link id) of the actor's organization, one problem per miss. */
export async function resolveGroupRefs(trx: Knex, organizationId: string, refs: Ref[], pointer: string) {
  return resolveRefs(trx, 'groups', organizationId, refs, pointer);
}

export async function createGroup(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, input: GroupInput) {
  await assertBelowPlanLimit(trx, 'groups', actor.organizationId, (plan) => PLAN_LIMITS[plan].groups, 'GROUP_LIMIT');
  await assertNamedRow(trx, 'groups', actor.organizationId, input, 'GROUP_NAME_TAKEN');
  const now = deps.clock.now();
  const [group] = await uniquely(
    () =>
      trx('groups')
        .insert({
          organization_id: actor.organizationId,
          name: input.name,
          system_link_id: input.systemLinkId || null,
          created_at: now,
          updated_at: now,
        })
        .returning('id'),
    UNIQUE_GROUP,
    { checkedBefore: true }, // assertNamedRow looked for both values just before
  );
  await logGroupChange(deps, trx, actor, 'group.created', group.id, {
    name: input.name,
    systemLinkId: input.systemLinkId ?? null,
  });
  return { id: group.id as string };
}

export async function updateGroup(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  groupId: string,
  input: Partial<GroupInput> & { lockVersion: number },
) {
  const before = await lockedRow<{ name: string; system_link_id: string | null }>(trx, 'groups', {
    id: groupId,
    organization_id: actor.organizationId,
  });
  await assertNamedRow(trx, 'groups', actor.organizationId, input, 'GROUP_NAME_TAKEN', groupId);
  const patch: Record<string, unknown> = { updated_at: deps.clock.now() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.systemLinkId !== undefined) patch.system_link_id = input.systemLinkId || null;
  await uniquely(
    () =>
      updateWithLock(trx, 'groups', { id: groupId, organization_id: actor.organizationId }, input.lockVersion, patch),
    UNIQUE_GROUP,
  );
  await logGroupChange(deps, trx, actor, 'group.updated', groupId, {
    before: { name: before.name, systemLinkId: before.system_link_id },
    after: { name: input.name ?? before.name, systemLinkId: patch.system_link_id ?? before.system_link_id },
  });
}

export async function deleteGroup(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, groupId: string) {
  const group = await lockedRow<{ name: string }>(trx, 'groups', {
    id: groupId,
    organization_id: actor.organizationId,
  });
  const usages = await groupUsages(trx, groupId);
  if (usages.length > 0) throw new AppError('GROUP_IN_USE', { detail: `used by: ${usages.join(', ')}` });
  // A service user (API key) needs no group: deleting its last one only narrows the key.
  const stranded = await trx('group_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.group_id', groupId)
    .where('u.kind', 'person')
    .whereNotExists((q) =>
      q
        .select(trx.raw('1'))
        .from('group_members as o')
        .whereRaw('o.user_id = m.user_id')
        .whereNot('o.group_id', groupId),
    )
    .count({ count: '*' });
  if (Number(stranded[0]!.count) > 0) throw new AppError('GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP');
  await trx('groups').where({ id: groupId }).delete();
  await logGroupChange(deps, trx, actor, 'group.deleted', groupId, { name: group.name });
}

/** Whether the user administers that group, or (without a group) any group at all. */
export async function administersGroup(knex: Knex, userId: string, groupId?: string): Promise<boolean> {
  const query = knex('group_members').where({ user_id: userId, is_group_admin: true });
  if (groupId) query.where({ group_id: groupId });
  return Boolean(await query.first('group_id'));
}

/**
 * Makes a user's groups exactly `groupIds` (already resolved in the organization): at least one, and no group the
 * user administers may be left. Returns whether anything changed.
 */
export async function replaceUserGroups(
  trx: Knex.Transaction,
  userId: string,
  groupIds: string[],
  pointer: string,
  now: Date,
): Promise<boolean> {
  if (groupIds.length === 0) throw new AppError('USER_GROUP_REQUIRED', { pointer });
  const current: { group_id: string; is_group_admin: boolean }[] = await trx('group_members')
    .where({ user_id: userId })
    .select('group_id', 'is_group_admin');
  const leaving = current.filter((m) => !groupIds.includes(m.group_id));
  if (leaving.some((m) => m.is_group_admin)) throw new AppError('GROUP_ADMIN_CANNOT_BE_REMOVED', { pointer });
  const joining = groupIds.filter((id) => !current.some((m) => m.group_id === id));
  if (leaving.length > 0) {
    await trx('group_members')
      .where({ user_id: userId })
      .whereIn(
        'group_id',
        leaving.map((m) => m.group_id),
      )
      .delete();
  }
  if (joining.length > 0) {
    await trx('group_members').insert(joining.map((id) => ({ group_id: id, user_id: userId, created_at: now })));
  }
  return leaving.length + joining.length > 0;
}

/** Sign-up's first group: named after the organization, the owner its member and group admin. */
export async function createDefaultGroup(trx: Knex.Transaction, organizationId: string, name: string, ownerId: string) {
  const [group] = await trx('groups').insert({ organization_id: organizationId, name }).returning('id');
  await trx('group_members').insert({ group_id: group.id, user_id: ownerId, is_group_admin: true });
  return { id: group.id as string };
}

/** Appends a group change to the operation log. */
export const logGroupChange = changeLogger('group');
