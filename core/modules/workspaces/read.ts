/*
 * How workspaces are read: the list scope of the caller, and the Workspace resource with the caller's relation to it
 * (owner organization, may edit / manage, sees all flows), the business flows they can see counted by status, and
 * (in the detail) the participants they may know about.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { visibleWorkspaceIds, whereFlowVisible, workspaceAccess, type WorkspaceAccess } from './access.ts';

type Row = Record<string, any>;

export interface FlowCounts {
  total: number;
  inProgress: number;
  complete: number;
  incomplete: number;
  cancelled: number;
}

const STATUS_KEYS: Record<string, keyof FlowCounts> = {
  in_progress: 'inProgress',
  complete: 'complete',
  incomplete: 'incomplete',
  cancelled: 'cancelled',
};

const emptyCounts = (): FlowCounts => ({ total: 0, inProgress: 0, complete: 0, incomplete: 0, cancelled: 0 });

/** The workspaces the caller can see, with the owner organization's name (`workspaces as w`). */
export function workspaceScope(knex: Knex, principal: Principal) {
  return knex('workspaces as w')
    .join('organizations as o', 'o.id', 'w.organization_id')
    .whereIn('w.id', visibleWorkspaceIds(knex, principal))
    .select('w.*', 'o.name as owner_organization_name');
}

/** Business flows the caller can see in each workspace, by status. */
export async function flowCounts(knex: Knex, principal: Principal, workspaceIds: string[]) {
  const counts = new Map<string, FlowCounts>(workspaceIds.map((id) => [id, emptyCounts()]));
  if (workspaceIds.length === 0) return counts;
  // Drafts are not counted: like the lists, the counts are of flows that were sent.
  const query = knex('business_flows as f').whereIn('f.workspace_id', workspaceIds).whereNot('f.status', 'draft');
  const rows: Row[] = await whereFlowVisible(knex, query, principal)
    .groupBy('f.workspace_id', 'f.status')
    .select('f.workspace_id', 'f.status', knex.raw('count(*)::int AS n'));
  for (const row of rows) {
    const entry = counts.get(row.workspace_id)!;
    const key = STATUS_KEYS[row.status];
    if (key) entry[key] += Number(row.n);
    entry.total += Number(row.n);
  }
  return counts;
}

/** The caller's relation, as the contract names it. */
export function relationOf(access: WorkspaceAccess) {
  return {
    isOwnerOrganization: access.isOwnerOrganization,
    canEdit: access.canEdit,
    canManage: canManage(access),
    canSeeAllFlows: access.canSeeAllFlows,
  };
}

/** Changing the workspace and its participants: owner organization admins and editable own-group members only. */
export function canManage(access: WorkspaceAccess): boolean {
  return access.isOwnerOrganization && access.canEdit;
}

/** One Workspace resource. */
export function workspaceResource(row: Row, access: WorkspaceAccess, counts: FlowCounts, participants?: Row[]) {
  return {
    type: 'Workspace' as const,
    id: row.id as string,
    attributes: {
      name: row.name,
      systemLinkId: row.system_link_id,
      description: row.description,
      mailNotification: row.mail_notification,
      ownerOrganization: { id: row.organization_id, name: row.owner_organization_name },
      ...relationOf(access),
      businessFlowCounts: counts,
      ...(participants ? { participants: participants.map(participantResource) } : {}),
      lockVersion: row.lock_version,
      createdAt: row.created_at.toISOString(),
      updatedAt: row.updated_at.toISOString(),
    },
  };
}

function participantResource(row: Row) {
  return {
    type: 'WorkspaceParticipant' as const,
    id: row.id as string,
    attributes: {
      kind: row.kind,
      groupId: row.group_id,
      groupName: row.group_name,
      organizationId: row.partner_organization_id,
      organizationName: row.partner_name,
      corporateNumber: row.partner_corporate_number,
      isPublic: row.is_public,
      isEditable: row.is_editable,
      createdAt: row.created_at.toISOString(),
    },
  };
}

/** Participants the caller may know about: all for the owner organization, only its own for a partner. */
export function participantRows(knex: Knex, workspaceId: string, access: WorkspaceAccess, principal: Principal) {
  const query = knex('workspace_participants as p')
    .leftJoin('groups as g', 'g.id', 'p.group_id')
    .leftJoin('organizations as po', 'po.id', 'p.partner_organization_id')
    .where('p.workspace_id', workspaceId)
    // One-time users take part too; they have their own list (listOneTimeUsers).
    .whereNot('p.kind', 'one_time_user')
    .orderBy([{ column: 'p.kind', order: 'desc' }, { column: 'p.created_at' }, { column: 'p.id' }])
    .select(
      'p.*',
      'g.name as group_name',
      'po.name as partner_name',
      'po.corporate_number as partner_corporate_number',
    );
  if (!access.isOwnerOrganization) query.where('p.partner_organization_id', principal.organizationId);
  return query;
}

/** The detail answer of one workspace; NOT_FOUND when the caller cannot see it. */
export async function workspaceBody(knex: Knex, principal: Principal, workspaceId: string) {
  const access = await workspaceAccess(knex, principal, workspaceId);
  const row = await knex('workspaces as w')
    .join('organizations as o', 'o.id', 'w.organization_id')
    .where('w.id', workspaceId)
    .first('w.*', 'o.name as owner_organization_name');
  const counts = (await flowCounts(knex, principal, [workspaceId])).get(workspaceId)!;
  const participants = await participantRows(knex, workspaceId, access, principal);
  return { data: workspaceResource(row, access, counts, participants) };
}
