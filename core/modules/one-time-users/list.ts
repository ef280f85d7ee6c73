/*
 * Lists: a workspace's one-time users with their invitations (to the flows the caller can see), and one flow's
 * invitations. Anyone who can see the workspace (or the flow) may read them; changes need edit rights.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { flowAccess, whereFlowVisible, workspaceAccess } from '../workspaces/access.ts';
import { invitationQuery, invitationResource } from './model.ts';

export async function listOneTimeUsers(knex: Knex, principal: Principal, workspaceId: string, now: Date) {
  const access = await workspaceAccess(knex, principal, workspaceId);
  const users = await knex('one_time_users')
    .where({ workspace_id: workspaceId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  const invitations = invitationQuery(knex)
    .where('f.workspace_id', workspaceId)
    .orderBy([{ column: 'i.created_at' }, { column: 'i.id' }]);
  if (!access.canSeeAllFlows) whereFlowVisible(knex, invitations, principal);
  const rows = await invitations;
  return {
    data: users.map((user) => ({
      type: 'OneTimeUser' as const,
      id: user.id as string,
      attributes: {
        name: user.name as string | null,
        email: user.email as string | null,
        locale: user.locale as 'ja' | 'en',
        status: user.status as 'invited' | 'registered',
        registeredAt: user.registered_at ? (user.registered_at as Date).toISOString() : null,
        createdAt: (user.created_at as Date).toISOString(),
        invitations: rows.filter((r) => r.one_time_user_id === user.id).map((r) => invitationResource(r, now)),
      },
    })),
  };
}

export async function listFlowInvitations(knex: Knex, principal: Principal, businessFlowId: string, now: Date) {
  await flowAccess(knex, principal, businessFlowId);
  const rows = await invitationQuery(knex)
    .where('i.business_flow_id', businessFlowId)
    .orderBy([{ column: 'i.created_at' }, { column: 'i.id' }]);
  return { data: rows.map((r) => invitationResource(r, now)) };
}
