import type { Knex } from 'knex';
import { PLAN_LIMITS } from '../../access/plans.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern, pageOf } from '../../http/pagination.ts';
import { assertDirectoryReader } from '../users/routes.ts';
import { actorOf } from '../users/service.ts';
import { addGroupMember, removeGroupMember, setGroupAdmin } from './members.ts';
import { createGroup, deleteGroup, updateGroup } from './service.ts';

function groupScope(knex: Knex, organizationId: string) {
  return knex('groups as g')
    .where('g.organization_id', organizationId)
    .select(
      'g.*',
      knex.raw('(SELECT count(*)::int FROM group_members m WHERE m.group_id = g.id) AS member_count'),
      knex.raw(
        '(SELECT count(*)::int FROM group_members m WHERE m.group_id = g.id AND m.is_group_admin) AS group_admin_count',
      ),
    );
}

function groupResource(row: Record<string, any>) {
  return {
    type: 'Group' as const,
    id: row.id as string,
    attributes: {
      name: row.name,
      systemLinkId: row.system_link_id,
      memberCount: Number(row.member_count),
      groupAdminCount: Number(row.group_admin_count),
      lockVersion: row.lock_version,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    },
  };
}

async function groupBody(knex: Knex, organizationId: string, groupId: string) {
  const row = await groupScope(knex, organizationId).where('g.id', groupId).first();
  if (!row) throw new AppError('NOT_FOUND');
  return { data: groupResource(row) };
}

function memberResource(row: Record<string, any>) {
  return {
    type: 'GroupMember' as const,
    id: row.user_id as string,
    attributes: {
      loginId: row.login_id,
      name: row.name,
      email: row.email,
      status: row.status,
      isGroupAdmin: row.is_group_admin,
      addedAt: row.created_at.toISOString(),
    },
  };
}

function memberScope(knex: Knex, groupId: string) {
  return knex('group_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where('m.group_id', groupId)
    .select('m.user_id', 'm.is_group_admin', 'm.created_at', 'u.login_id', 'u.name', 'u.email', 'u.status');
}

async function memberBody(knex: Knex, groupId: string, userId: string) {
  const row = await memberScope(knex, groupId).where('m.user_id', userId).first();
  if (!row) throw new AppError('NOT_FOUND');
  return { data: memberResource(row) };
}

/** Groups and their members. */
export function groupRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;
  const manage = { permission: 'users:manage' } as const;

  api.operation('listGroups', async ({ principal, query }) => {
    await assertDirectoryReader(deps, principal);
    const scope = groupScope(knex, principal.organizationId);
    if (query['filter[q]']) {
      const pattern = likePattern(query['filter[q]']);
      scope.where((w) => w.whereILike('g.name', pattern).orWhereILike('g.system_link_id', pattern));
    }
    if (query['filter[systemLinkId]'] !== undefined) scope.where('g.system_link_id', query['filter[systemLinkId]']);
    const sortable = { name: 'g.name', createdAt: 'g.created_at', memberCount: 'member_count' };
    const { rows, meta } = await pageOf<Record<string, any>>(scope, query, sortable, 'name', 'g.id');
    return {
      body: { data: rows.map(groupResource), meta: { ...meta, maxGroups: PLAN_LIMITS[principal.plan].groups } },
    };
  });

  api.operation('getGroup', async ({ principal, params }) => {
    await assertDirectoryReader(deps, principal);
    return { body: await groupBody(knex, principal.organizationId, params.groupId) };
  });

  api.operation('createGroup', manage, async ({ principal, body, req }) => {
    const { id } = await knex.transaction((trx) =>
      createGroup(deps, trx, actorOf(principal, req), body.data.attributes),
    );
    return { status: 201, body: await groupBody(knex, principal.organizationId, id) };
  });

  api.operation('updateGroup', manage, async ({ principal, body, params, req }) => {
    await knex.transaction((trx) =>
      updateGroup(deps, trx, actorOf(principal, req), params.groupId, body.data.attributes),
    );
    return { body: await groupBody(knex, principal.organizationId, params.groupId) };
  });

  api.operation('deleteGroup', manage, async ({ principal, params, req }) => {
    await knex.transaction((trx) => deleteGroup(deps, trx, actorOf(principal, req), params.groupId));
    return { status: 204 };
  });

  api.operation('listGroupMembers', async ({ principal, params, query }) => {
    await assertDirectoryReader(deps, principal);
    await groupBody(knex, principal.organizationId, params.groupId);
    const scope = memberScope(knex, params.groupId);
    if (query['filter[q]']) {
      const pattern = likePattern(query['filter[q]']);
      scope.where((w) =>
        w.whereILike('u.login_id', pattern).orWhereILike('u.name', pattern).orWhereILike('u.email', pattern),
      );
    }
    const sortable = {
      loginId: 'u.login_id',
      name: 'u.name',
      isGroupAdmin: 'm.is_group_admin',
      addedAt: 'm.created_at',
    };
    const { rows, meta } = await pageOf<Record<string, any>>(scope, query, sortable, 'loginId', 'm.user_id');
    return { body: { data: rows.map(memberResource), meta } };
  });

  // Group admins manage their own group's members: the service checks that, not the route.
  api.operation('addGroupMember', async ({ principal, body, params, req }) => {
    const { userId, isGroupAdmin } = body.data.attributes;
    await knex.transaction((trx) =>
      addGroupMember(deps, trx, actorOf(principal, req), params.groupId, userId, isGroupAdmin),
    );
    return { status: 201, body: await memberBody(knex, params.groupId, userId) };
  });

  api.operation('updateGroupMember', manage, async ({ principal, body, params, req }) => {
    await knex.transaction((trx) =>
      setGroupAdmin(
        deps,
        trx,
        actorOf(principal, req),
        params.groupId,
        params.userId,
        body.data.attributes.isGroupAdmin,
      ),
    );
    return { body: await memberBody(knex, params.groupId, params.userId) };
  });

  api.operation('removeGroupMember', async ({ principal, params, req }) => {
    await knex.transaction((trx) =>
      removeGroupMember(deps, trx, actorOf(principal, req), params.groupId, params.userId),
    );
    return { status: 204 };
  });
}
