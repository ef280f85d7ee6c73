import type { Knex } from 'knex';
import { lockedRow } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor } from '../users/service.ts';
import { administersGroup, logGroupChange } from './service.ts';

const at = (field: string) => `/data/attributes/${field}`;

// Members of a group: organization admins manage all of them, a group admin those of their own group; only
// organization admins grant or remove the group admin right.

/** Organization admins manage every group's members; a group admin manages their own group's. */
async function assertManagesMembers(trx: Knex, actor: Actor, groupId: string) {
  await lockedRow(trx as Knex.Transaction, 'groups', { id: groupId, organization_id: actor.organizationId });
  if (!actor.isAdmin && !(await administersGroup(trx, actor.userId, groupId)))
    throw new AppError('FUNCTION_NOT_PERMITTED');
}

/**
 * An API key's service user (kind 'service') changes groups only by an organization administrator (its groups are
 * the key's reach); it needs no group, so removing its last one is allowed.
 */
async function serviceUserGate(trx: Knex, actor: Actor, userId: string): Promise<boolean> {
  const user = await trx('users').where({ id: userId, organization_id: actor.organizationId }).first('kind');
  const isService = user?.kind === 'service';
  if (isService && !actor.isAdmin) throw new AppError('FUNCTION_NOT_PERMITTED');
  return isService;
}

export async function addGroupMember(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  groupId: string,
  userId: string,
  isGroupAdmin = false,
) {
  await assertManagesMembers(trx, actor, groupId);
  if (isGroupAdmin && !actor.isAdmin) throw new AppError('FUNCTION_NOT_PERMITTED');
  await serviceUserGate(trx, actor, userId);
  const user = await trx('users')
    .where({ id: userId, organization_id: actor.organizationId })
    .whereNot({ status: 'deleted' })
    .first('id');
  if (!user) throw new AppError('REFERENCE_NOT_FOUND', { pointer: at('userId') });
  if (await trx('group_members').where({ group_id: groupId, user_id: userId }).first('user_id')) {
    throw new AppError('ALREADY_GROUP_MEMBER');
  }
  await trx('group_members').insert({
    group_id: groupId,
    user_id: userId,
    is_group_admin: isGroupAdmin,
    created_at: deps.clock.now(),
  });
  await logGroupChange(deps, trx, actor, 'group.member_added', groupId, { userId, isGroupAdmin });
}

async function memberOf(trx: Knex.Transaction, groupId: string, userId: string) {
  const member = await trx('group_members').where({ group_id: groupId, user_id: userId }).forUpdate().first();
  if (!member) throw new AppError('NOT_FOUND');
  return member as { is_group_admin: boolean };
}

export async function setGroupAdmin(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  groupId: string,
  userId: string,
  isGroupAdmin: boolean,
) {
  if (!actor.isAdmin) throw new AppError('FUNCTION_NOT_PERMITTED');
  await lockedRow(trx, 'groups', { id: groupId, organization_id: actor.organizationId });
  const member = await memberOf(trx, groupId, userId);
  if (member.is_group_admin === isGroupAdmin) return;
  await trx('group_members').where({ group_id: groupId, user_id: userId }).update({ is_group_admin: isGroupAdmin });
  await logGroupChange(deps, trx, actor, 'group.member_updated', groupId, { userId, isGroupAdmin });
}

export async function removeGroupMember(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  groupId: string,
  userId: string,
) {
  await assertManagesMembers(trx, actor, groupId);
  const isService = await serviceUserGate(trx, actor, userId);
  const member = await memberOf(trx, groupId, userId);
  if (member.is_group_admin) throw new AppError('GROUP_ADMIN_CANNOT_BE_REMOVED');
  const others = await trx('group_members')
    .where({ user_id: userId })
    .whereNot({ group_id: groupId })
    .first('group_id');
  if (!others && !isService) throw new AppError('USER_LAST_GROUP');
  await trx('group_members').where({ group_id: groupId, user_id: userId }).delete();
  await logGroupChange(deps, trx, actor, 'group.member_removed', groupId, { userId });
}
