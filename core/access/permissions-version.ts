/*
 * The permissions version: a short digest of everything that decides what a signed-in user may do (administrator
 * and owner flags, the organization's plan and paid options, group memberships with the group-admin flag, and the
 * roles held with their task permissions). GET /me returns it; the web sends it back on writes as
 * X-Permissions-Version, and a write whose version is no longer the user's is refused with 409 PERMISSIONS_CHANGED
 * (the spec: "Permissions have been updated by another user. Please reload.") instead of acting on what the screen
 * showed under rights the user no longer has (core/contract/router.ts).
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Principal } from '../http/context.ts';

export const PERMISSIONS_VERSION_HEADER = 'x-permissions-version';

/** The current permissions version of the principal's user (two small indexed queries). */
export async function permissionsVersion(knex: Knex, principal: Principal): Promise<string> {
  const [groups, roles] = await Promise.all([
    knex('group_members').where({ user_id: principal.userId }).orderBy('group_id').select('group_id', 'is_group_admin'),
    knex('user_roles as ur')
      .join('roles as r', 'r.id', 'ur.role_id')
      .where('ur.user_id', principal.userId)
      .orderBy('r.id')
      .select('r.id', 'r.task_permissions'),
  ]);
  const facts = {
    admin: principal.isAdmin,
    owner: principal.isOwner,
    plan: principal.plan,
    options: [...principal.options].sort(),
    groups: groups.map((g) => [g.group_id, Boolean(g.is_group_admin)]),
    roles: roles.map((r) => [r.id, r.task_permissions]),
  };
  return createHash('sha256').update(JSON.stringify(facts)).digest('base64url').slice(0, 22);
}
