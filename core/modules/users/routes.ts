import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern, pageOf } from '../../http/pagination.ts';
import { administersGroup } from '../groups/service.ts';
import { groupRoutes } from '../groups/routes.ts';
import { roleRoutes } from '../roles/routes.ts';
import { registerInvitationJob } from './invitation.ts';
import { userBody, userResources } from './resources.ts';
import {
  actorOf,
  changeUserState,
  createUser,
  deleteUser,
  resendInvitation,
  type UserStateChange,
  updateUser,
} from './service.ts';

/** Organization admins and group admins may read the user and group directory; nobody else. */
export async function assertDirectoryReader(deps: CoreDeps, principal: Principal): Promise<void> {
  if (principal.isAdmin) return;
  if (!(await administersGroup(deps.knex, principal.userId))) throw new AppError('FUNCTION_NOT_PERMITTED');
}

const refs = (ids: string[] | undefined) => ids?.map((id) => ({ id }));

/** Users, groups and roles: registers their routes and the invitation job. */
export function userAdminRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, clock } = deps;
  const manage = { permission: 'users:manage' } as const;
  registerInvitationJob(deps);

  api.operation('listUsers', async ({ principal, query }) => {
    await assertDirectoryReader(deps, principal);
    // API keys' service users are listed with their keys (listApiKeys), not among the people.
    const scope = knex('users as u')
      .where({ 'u.organization_id': principal.organizationId, 'u.kind': 'person' })
      .whereNot('u.status', 'deleted')
      .select('u.id');
    const q = query['filter[q]'];
    if (q) {
      const pattern = likePattern(q);
      scope.where((w) =>
        w.whereILike('u.login_id', pattern).orWhereILike('u.name', pattern).orWhereILike('u.email', pattern),
      );
    }
    if (query['filter[groupId]']) {
      scope.whereExists((s) =>
        s
          .select(knex.raw('1'))
          .from('group_members as m')
          .whereRaw('m.user_id = u.id')
          .where('m.group_id', query['filter[groupId]']),
      );
    }
    if (query['filter[roleId]']) {
      scope.whereExists((s) =>
        s
          .select(knex.raw('1'))
          .from('user_roles as r')
          .whereRaw('r.user_id = u.id')
          .where('r.role_id', query['filter[roleId]']),
      );
    }
    if (query['filter[status]']) scope.where('u.status', query['filter[status]']);
    if (query['filter[systemLinkId]'] !== undefined) scope.where('u.system_link_id', query['filter[systemLinkId]']);
    const sortable = { loginId: 'u.login_id', name: 'u.name', email: 'u.email', createdAt: 'u.created_at' };
    const { rows, meta } = await pageOf<{ id: string }>(scope, query, sortable, 'loginId', 'u.id');
    const data = await userResources(
      knex,
      principal.organizationId,
      rows.map((r) => r.id),
      clock.now(),
    );
    return { body: { data, meta } };
  });

  api.operation('getUser', async ({ principal, params }) => {
    await assertDirectoryReader(deps, principal);
    return { body: await userBody(knex, principal.organizationId, params.userId, clock.now()) };
  });

  api.operation('createUser', manage, async ({ principal, body, req }) => {
    const { groupIds, roleIds, ...fields } = body.data.attributes;
    const { id } = await knex.transaction((trx) =>
      createUser(deps, trx, actorOf(principal, req), { ...fields, groups: refs(groupIds)!, roles: refs(roleIds) }),
    );
    return { status: 201, body: await userBody(knex, principal.organizationId, id, clock.now()) };
  });

  api.operation('updateUser', manage, async ({ principal, body, params, req }) => {
    const { groupIds, roleIds, ...fields } = body.data.attributes;
    await knex.transaction((trx) =>
      updateUser(deps, trx, actorOf(principal, req), params.userId, {
        ...fields,
        groups: refs(groupIds),
        roles: refs(roleIds),
      }),
    );
    return { body: await userBody(knex, principal.organizationId, params.userId, clock.now()) };
  });

  api.operation('deleteUser', manage, async ({ principal, params, req }) => {
    await knex.transaction((trx) => deleteUser(deps, trx, actorOf(principal, req), params.userId));
    return { status: 204 };
  });

  const stateChanges = {
    deactivateUser: 'deactivate',
    reactivateUser: 'reactivate',
    lockUser: 'lock',
    unlockUser: 'unlock',
    unblockUserEmail: 'unblock-email',
  } as const satisfies Record<string, UserStateChange>;
  for (const [operationId, change] of Object.entries(stateChanges)) {
    api.operation(operationId as keyof typeof stateChanges, manage, async ({ principal, body, params, req }) => {
      await knex.transaction((trx) =>
        changeUserState(deps, trx, actorOf(principal, req), params.userId, change, body.data.attributes.lockVersion),
      );
      return { body: await userBody(knex, principal.organizationId, params.userId, clock.now()) };
    });
  }

  api.operation('resendUserInvitation', manage, async ({ principal, params, req }) => {
    await knex.transaction((trx) => resendInvitation(deps, trx, actorOf(principal, req), params.userId));
    return { status: 202 };
  });

  groupRoutes(api, deps);
  roleRoutes(api, deps);
}
