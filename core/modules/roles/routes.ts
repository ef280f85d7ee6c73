import type { Knex } from 'knex';
import { PLAN_LIMITS } from '../../access/plans.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern, pageOf } from '../../http/pagination.ts';
import { actorOf } from '../users/service.ts';
import { createRole, deleteRole, normaliseTaskPermissions, updateRole } from './service.ts';

function roleScope(knex: Knex, organizationId: string) {
  return knex('roles as r')
    .where('r.organization_id', organizationId)
    .select('r.*', knex.raw('(SELECT count(*)::int FROM user_roles ur WHERE ur.role_id = r.id) AS user_count'));
}

function roleResource(row: Record<string, any>) {
  return {
    type: 'Role' as const,
    id: row.id as string,
    attributes: {
      name: row.name,
      systemLinkId: row.system_link_id,
      taskPermissions: normaliseTaskPermissions(row.task_permissions),
      userCount: Number(row.user_count),
      lockVersion: row.lock_version,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    },
  };
}

async function roleBody(knex: Knex, organizationId: string, roleId: string) {
  const row = await roleScope(knex, organizationId).where('r.id', roleId).first();
  if (!row) throw new AppError('NOT_FOUND');
  return { data: roleResource(row) };
}

/** Roles: every member reads them (tasks are assigned by role); only administrators change them. */
export function roleRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;
  const manage = { permission: 'organization:manage' } as const;

  api.operation('listRoles', async ({ principal, query }) => {
    const scope = roleScope(knex, principal.organizationId);
    if (query['filter[q]']) {
      const pattern = likePattern(query['filter[q]']);
      scope.where((w) => w.whereILike('r.name', pattern).orWhereILike('r.system_link_id', pattern));
    }
    if (query['filter[systemLinkId]'] !== undefined) scope.where('r.system_link_id', query['filter[systemLinkId]']);
    const sortable = { name: 'r.name', createdAt: 'r.created_at' };
    const { rows, meta } = await pageOf<Record<string, any>>(scope, query, sortable, 'name', 'r.id');
    return { body: { data: rows.map(roleResource), meta: { ...meta, maxRoles: PLAN_LIMITS[principal.plan].roles } } };
  });

  api.operation('getRole', async ({ principal, params }) => ({
    body: await roleBody(knex, principal.organizationId, params.roleId),
  }));

  api.operation('createRole', manage, async ({ principal, body, req }) => {
    const { id } = await knex.transaction((trx) =>
      createRole(deps, trx, actorOf(principal, req), body.data.attributes),
    );
    return { status: 201, body: await roleBody(knex, principal.organizationId, id) };
  });

  api.operation('updateRole', manage, async ({ principal, body, params, req }) => {
    await knex.transaction((trx) =>
      updateRole(deps, trx, actorOf(principal, req), params.roleId, body.data.attributes),
    );
    return { body: await roleBody(knex, principal.organizationId, params.roleId) };
  });

  api.operation('deleteRole', manage, async ({ principal, params, req }) => {
    await knex.transaction((trx) => deleteRole(deps, trx, actorOf(principal, req), params.roleId));
    return { status: 204 };
  });
}
