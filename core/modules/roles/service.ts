/*
 * Roles: which task types (sign, approve, read) their holders may execute and view. Every function takes the
 * caller's transaction and an Actor (core/modules/users/service.ts) and appends the operation log:
 *
 *   createRole(deps, trx, actor, { name, systemLinkId?, taskPermissions })                 -> { id }
 *   updateRole(deps, trx, actor, roleId, { lockVersion, name?, systemLinkId?, taskPermissions? })
 *   deleteRole(deps, trx, actor, roleId)                 (409 ROLE_IN_USE while a user holds it)
 *   roleCanPerform(trx, organizationId, roleId, taskType, mode = 'execute') -> boolean   (the tasks issue)
 *   assertRoleCanPerform(...)                            (422 ROLE_CANNOT_PERFORM_TASK, with an optional pointer)
 *   resolveRoleRefs(trx, organizationId, refs, pointer)  -> { ids, problems }
 *   replaceUserRoles(trx, userId, roleIds)               -> whether anything changed
 */
import type { Knex } from 'knex';
import { PLAN_LIMITS } from '../../access/plans.ts';
import { lockedRow, updateWithLock } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { assertBelowPlanLimit, assertNamedRow, type Ref, resolveRefs } from '../../db/named-rows.ts';
import { changeLogger } from '../logs/operation-log.ts';
import type { Actor } from '../users/service.ts';
import { UNIQUE_ROLE, uniquely } from '../users/validation.ts';

const log = changeLogger('role');

export const TASK_TYPES = ['sign', 'approve', 'read'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export type TaskPermissions = Record<TaskType, { execute: boolean; view: boolean }>;

export interface RoleInput {
  name: string;
  systemLinkId?: string | null;
  taskPermissions: TaskPermissions;
}

/** Execute implies view: a role that may run a task type may always see it. */
export function normaliseTaskPermissions(permissions: TaskPermissions): TaskPermissions {
  const out = {} as TaskPermissions;
  for (const type of TASK_TYPES) {
    const p = permissions[type] ?? { execute: false, view: false };
    out[type] = { execute: Boolean(p.execute), view: Boolean(p.execute || p.view) };
  }
  return out;
}

export function resolveRoleRefs(trx: Knex, organizationId: string, refs: Ref[], pointer: string) {
  return resolveRefs(trx, 'roles', organizationId, refs, pointer);
}

export async function createRole(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, input: RoleInput) {
  await assertBelowPlanLimit(trx, 'roles', actor.organizationId, (plan) => PLAN_LIMITS[plan].roles, 'ROLE_LIMIT');
  await assertNamedRow(trx, 'roles', actor.organizationId, input, 'ROLE_NAME_TAKEN');
  const now = deps.clock.now();
  const taskPermissions = normaliseTaskPermissions(input.taskPermissions);
  const [role] = await uniquely(
    () =>
      trx('roles')
        .insert({
          organization_id: actor.organizationId,
          name: input.name,
          system_link_id: input.systemLinkId || null,
          task_permissions: JSON.stringify(taskPermissions),
          created_at: now,
          updated_at: now,
        })
        .returning('id'),
    UNIQUE_ROLE,
    { checkedBefore: true }, // assertNamedRow looked for both values just before
  );
  await log(deps, trx, actor, 'role.created', role.id, { name: input.name, taskPermissions });
  return { id: role.id as string };
}

export async function updateRole(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  roleId: string,
  input: Partial<RoleInput> & { lockVersion: number },
) {
  const where = { id: roleId, organization_id: actor.organizationId };
  const before = await lockedRow<{ name: string; system_link_id: string | null; task_permissions: TaskPermissions }>(
    trx,
    'roles',
    where,
  );
  await assertNamedRow(trx, 'roles', actor.organizationId, input, 'ROLE_NAME_TAKEN', roleId);
  const patch: Record<string, unknown> = { updated_at: deps.clock.now() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.systemLinkId !== undefined) patch.system_link_id = input.systemLinkId || null;
  const taskPermissions = input.taskPermissions ? normaliseTaskPermissions(input.taskPermissions) : undefined;
  if (taskPermissions) patch.task_permissions = JSON.stringify(taskPermissions);
  await uniquely(() => updateWithLock(trx, 'roles', where, input.lockVersion, patch), UNIQUE_ROLE);
  await log(deps, trx, actor, 'role.updated', roleId, {
    before: { name: before.name, systemLinkId: before.system_link_id, taskPermissions: before.task_permissions },
    after: {
      name: input.name ?? before.name,
      systemLinkId: input.systemLinkId === undefined ? before.system_link_id : input.systemLinkId || null,
      taskPermissions: taskPermissions ?? before.task_permissions,
    },
  });
}

export async function deleteRole(deps: CoreDeps, trx: Knex.Transaction, actor: Actor, roleId: string) {
  const role = await lockedRow<{ name: string }>(trx, 'roles', { id: roleId, organization_id: actor.organizationId });
  const holders = await trx('user_roles').where({ role_id: roleId }).count({ count: '*' });
  if (Number(holders[0]!.count) > 0)
    throw new AppError('ROLE_IN_USE', { params: { count: Number(holders[0]!.count) } });
  await trx('roles').where({ id: roleId }).delete();
  await log(deps, trx, actor, 'role.deleted', roleId, { name: role.name });
}

/** Whether holders of the role may execute (or view) tasks of a type; a role of another organization may not. */
export async function roleCanPerform(
  trx: Knex,
  organizationId: string,
  roleId: string,
  taskType: TaskType,
  mode: 'execute' | 'view' = 'execute',
): Promise<boolean> {
  const role = await trx('roles').where({ id: roleId, organization_id: organizationId }).first('task_permissions');
  return Boolean(role?.task_permissions?.[taskType]?.[mode]);
}

/** Rejects a task assignment whose role cannot perform the task (422 ROLE_CANNOT_PERFORM_TASK). */
export async function assertRoleCanPerform(
  trx: Knex,
  organizationId: string,
  roleId: string,
  taskType: TaskType,
  pointer?: string,
): Promise<void> {
  if (!(await roleCanPerform(trx, organizationId, roleId, taskType))) {
    throw new AppError('ROLE_CANNOT_PERFORM_TASK', { pointer, params: { taskType } });
  }
}

/** Makes a user's roles exactly `roleIds` (already resolved in the organization). */
export async function replaceUserRoles(trx: Knex.Transaction, userId: string, roleIds: string[]): Promise<boolean> {
  const current: string[] = await trx('user_roles').where({ user_id: userId }).pluck('role_id');
  const leaving = current.filter((id) => !roleIds.includes(id));
  const joining = roleIds.filter((id) => !current.includes(id));
  if (leaving.length > 0) await trx('user_roles').where({ user_id: userId }).whereIn('role_id', leaving).delete();
  if (joining.length > 0) await trx('user_roles').insert(joining.map((id) => ({ user_id: userId, role_id: id })));
  return leaving.length + joining.length > 0;
}
