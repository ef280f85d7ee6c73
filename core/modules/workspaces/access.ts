/*
 * Who may see and do what in a workspace. One place decides it for workspaces, business flows, documents and
 * tasks, so a partner never reaches what was not shared with it:
 *
 * - An admin of the owner organization sees and edits everything in the organization's workspaces.
 * - Anyone else reaches a workspace through a participant: one of their own groups (owner organization), or their
 *   organization as a partner (client). A participant's `is_public` lets it see every business flow of the
 *   workspace (otherwise only flows with a task assigned to it, for a group's task with a role only when the
 *   member's roles may view that task type); `is_editable` lets it create and edit flows,
 *   documents and (editable-by-client) properties.
 * - A workspace nobody of the caller's kind participates in is NOT_FOUND, never FORBIDDEN: its existence stays
 *   hidden.
 * - A one-time user (guest) reaches only the documents of the flow they were invited to that carry a task of theirs,
 *   and edits nothing.
 */
import type { Knex } from 'knex';
import type { GuestPrincipal, Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { BRANCH_ID } from '../../http/pagination.ts';

/** What the caller may do in one workspace. */
export interface WorkspaceAccess {
  workspaceId: string;
  ownerOrganizationId: string;
  workspaceName: string;
  mailNotification: boolean;
  /** The caller belongs to the organization that owns the workspace. */
  isOwnerOrganization: boolean;
  /** An admin of the owner organization: everything is allowed. */
  isOwnerAdmin: boolean;
  /** Sees every business flow of the workspace (admin or a public participant). */
  canSeeAllFlows: boolean;
  /** May create and edit flows and documents (admin or an editable participant). */
  canEdit: boolean;
  /** The caller's own groups that take part in the workspace (owner organization only). */
  groupIds: string[];
  /** The caller's organization when it takes part as a partner, else null. */
  partnerOrganizationId: string | null;
}

/** The groups the caller is a member of (any organization's user). */
export function memberGroupIds(knex: Knex, userId: string) {
  return knex('group_members').where('user_id', userId).select('group_id');
}

/**
 * The task types the user's roles let them view (a role's task_permissions; execute implies view), as a subquery:
 * what a group member sees of their group's tasks that carry a role.
 */
export function viewableTaskTypes(knex: Knex, userId: string) {
  return knex('user_roles as vur')
    .join('roles as vr', 'vr.id', 'vur.role_id')
    .joinRaw('CROSS JOIN LATERAL jsonb_each(vr.task_permissions) AS vp(task_type, permission)')
    .where('vur.user_id', userId)
    .where((p) => p.whereRaw(`vp.permission->>'view' = 'true'`).orWhereRaw(`vp.permission->>'execute' = 'true'`))
    .select('vp.task_type');
}

/**
 * Participant rows that let the caller in: their own groups, or their organization as partner. A query builder
 * over `workspace_participants as p`, for use in subqueries.
 */
export function callerParticipants(knex: Knex, principal: Principal) {
  return knex('workspace_participants as p').where((w) =>
    w
      .where((g) => g.whereRaw(`p.kind = 'group'`).whereIn('p.group_id', memberGroupIds(knex, principal.userId)))
      .orWhere((o) =>
        o.whereRaw(`p.kind = 'organization'`).where('p.partner_organization_id', principal.organizationId),
      ),
  );
}

/** Ids of every workspace the caller can see (subquery). */
export function visibleWorkspaceIds(knex: Knex, principal: Principal) {
  const viaParticipants = callerParticipants(knex, principal).select('p.workspace_id');
  if (!principal.isAdmin) return viaParticipants;
  return knex
    .select('w.id as workspace_id')
    .from('workspaces as w')
    .where('w.organization_id', principal.organizationId)
    .union(viaParticipants);
}

/**
 * Restricts a query over `business_flows as f` to the flows the caller can see: all flows of workspaces they see
 * in full, plus flows holding a task assigned to one of their groups or to their organization as partner.
 * Each branch is an uncorrelated `IN (subquery)`, which PostgreSQL computes once and hashes, instead of a
 * per-row EXISTS; an administrator's own organization is matched by its column, so the task branch only has to
 * find other organizations' flows (measured in `npm run bench:flows`).
 */
export function whereFlowVisible(knex: Knex, query: Knex.QueryBuilder, principal: Principal, alias = 'f') {
  whereDraftEditable(knex, query, principal, alias);
  // Two task branches, so each uses its own index (tasks.group_id, tasks.partner_organization_id).
  const flowsOfTasks = (assigned: (q: Knex.QueryBuilder) => void) => {
    const tasks = knex('tasks as vt').join('documents as vd', 'vd.id', 'vt.document_id').select('vd.business_flow_id');
    assigned(tasks);
    if (principal.isAdmin) tasks.whereNot('vt.organization_id', principal.organizationId);
    return tasks;
  };
  return query.where((w) => {
    if (principal.isAdmin) w.orWhere(`${alias}.organization_id`, principal.organizationId);
    w.orWhereIn(
      `${alias}.workspace_id`,
      callerParticipants(knex, principal).whereRaw('p.is_public').select('p.workspace_id'),
    );
    w.orWhereIn(
      `${alias}.id`,
      flowsOfTasks((q) =>
        q
          .whereIn('vt.group_id', memberGroupIds(knex, principal.userId))
          // A task with a role shows only to members whose roles may view its type (spec §6: roles decide which
          // tasks can be executed or viewed); a task without a role shows to every member of its group.
          .where((r) => r.whereNull('vt.role_id').orWhereIn('vt.type', viewableTaskTypes(knex, principal.userId))),
      ),
    );
    w.orWhereIn(
      `${alias}.id`,
      flowsOfTasks((q) => q.where('vt.partner_organization_id', principal.organizationId)),
    );
  });
}

/**
 * The organizations whose flows the caller may see some of: their own, those whose workspaces they take part in,
 * and those that assigned their organization a task. whereFlowVisible only ever matches flows of these (a task's
 * group is one of its flow's organization's groups), so a list can walk each one's flows on its own.
 */
function visibleFlowOrganizations(knex: Knex, principal: Principal) {
  return knex
    .select(knex.raw('?::uuid AS id', [principal.organizationId]))
    .union([
      callerParticipants(knex, principal).select('p.organization_id as id'),
      knex('tasks').where('partner_organization_id', principal.organizationId).distinct('organization_id as id'),
    ]);
}

/**
 * whereFlowVisible read per organization, for a paged list (core/http/pagination.ts PageOptions.branches): each
 * visible organization's flows walked in the sort order along its own index (business_flows_org_<sort key>), then
 * merged. Read across every organization at once, a list walked the whole platform's flows to find twenty of one
 * small organization's.
 */
export function flowsByOrganization(knex: Knex, principal: Principal) {
  return [
    (first: Knex.QueryBuilder) =>
      knex
        .from(visibleFlowOrganizations(knex, principal).as('vo'))
        .joinRaw('CROSS JOIN LATERAL ? AS x', [knex.raw('?', [first.whereRaw('f.organization_id = vo.id')])])
        .select(`x.${BRANCH_ID}`),
  ];
}

/**
 * A draft flow (not sent yet) shows only to editors of its owner organization: an admin of it, or a member of an
 * editable group participant. Partners and everyone else never see one.
 */
function whereDraftEditable(knex: Knex, query: Knex.QueryBuilder, principal: Principal, alias: string) {
  return query.where((d) =>
    d.whereRaw(`${alias}.status <> 'draft'`).orWhere((own) => {
      own.where(`${alias}.organization_id`, principal.organizationId);
      if (!principal.isAdmin) {
        own.whereIn(
          `${alias}.workspace_id`,
          callerParticipants(knex, principal).whereRaw(`p.kind = 'group' AND p.is_editable`).select('p.workspace_id'),
        );
      }
    }),
  );
}

/** Whether the caller may see a flow of this status with this access: drafts only for owner-organization editors. */
export function draftVisibleTo(access: WorkspaceAccess, flow: { status: string }): boolean {
  return flow.status !== 'draft' || (access.isOwnerOrganization && access.canEdit);
}

/** The caller's access to one workspace; NOT_FOUND when they cannot see it at all. */
export async function workspaceAccess(trx: Knex, principal: Principal, workspaceId: string): Promise<WorkspaceAccess> {
  const workspace = await trx('workspaces')
    .where('id', workspaceId)
    .first('id', 'organization_id', 'name', 'mail_notification');
  if (!workspace) throw new AppError('NOT_FOUND');
  const participants: { kind: string; group_id: string | null; is_public: boolean; is_editable: boolean }[] =
    await callerParticipants(trx, principal)
      .where('p.workspace_id', workspaceId)
      .select('p.kind', 'p.group_id', 'p.is_public', 'p.is_editable');
  const access = accessOf(principal, workspace, participants);
  if (!access.isOwnerAdmin && participants.length === 0) throw new AppError('NOT_FOUND');
  return access;
}

/**
 * The caller's access to several workspaces at once (a list page), from rows they can already see: the same rule
 * as {@link workspaceAccess} in one query.
 */
export async function workspaceAccessMany(
  knex: Knex,
  principal: Principal,
  workspaces: { id: string; organization_id: string; name: string; mail_notification: boolean }[],
): Promise<Map<string, WorkspaceAccess>> {
  const rows: {
    workspace_id: string;
    kind: string;
    group_id: string | null;
    is_public: boolean;
    is_editable: boolean;
  }[] =
    workspaces.length === 0
      ? []
      : await callerParticipants(knex, principal)
          .whereRaw('p.workspace_id = ANY(?::uuid[])', [workspaces.map((w) => w.id)])
          .select('p.workspace_id', 'p.kind', 'p.group_id', 'p.is_public', 'p.is_editable')
          // Prepared, one statement for any page (core/db/prepared-client.ts).
          .options({ prepare: true });
  const result = new Map<string, WorkspaceAccess>();
  for (const workspace of workspaces) {
    const participants = rows.filter((r) => r.workspace_id === workspace.id);
    result.set(workspace.id, accessOf(principal, workspace, participants));
  }
  return result;
}

function accessOf(
  principal: Principal,
  workspace: { id: string; organization_id: string; name: string; mail_notification: boolean },
  participants: { kind: string; group_id: string | null; is_public: boolean; is_editable: boolean }[],
): WorkspaceAccess {
  const isOwnerOrganization = workspace.organization_id === principal.organizationId;
  const isOwnerAdmin = isOwnerOrganization && principal.isAdmin;
  return {
    workspaceId: workspace.id,
    ownerOrganizationId: workspace.organization_id,
    workspaceName: workspace.name,
    mailNotification: workspace.mail_notification,
    isOwnerOrganization,
    isOwnerAdmin,
    canSeeAllFlows: isOwnerAdmin || participants.some((p) => p.is_public),
    canEdit: isOwnerAdmin || participants.some((p) => p.is_editable),
    groupIds: participants.flatMap((p) => (p.kind === 'group' && p.group_id ? [p.group_id] : [])),
    partnerOrganizationId: participants.some((p) => p.kind === 'organization') ? principal.organizationId : null,
  };
}

/** Throws WORKSPACE_EDIT_NOT_ALLOWED unless the caller may edit in the workspace. */
export function assertCanEdit(access: WorkspaceAccess): void {
  if (!access.canEdit) throw new AppError('WORKSPACE_EDIT_NOT_ALLOWED');
}

/** The caller's access to the workspace of one business flow, checking the flow itself is visible to them. */
export async function flowAccess(trx: Knex, principal: Principal, businessFlowId: string) {
  const flow = await trx('business_flows').where('id', businessFlowId).first();
  if (!flow) throw new AppError('NOT_FOUND');
  const access = await workspaceAccess(trx, principal, flow.workspace_id);
  if (!draftVisibleTo(access, flow)) throw new AppError('NOT_FOUND');
  if (!access.canSeeAllFlows) {
    const visible = await whereFlowVisible(
      trx,
      trx('business_flows as f').where('f.id', businessFlowId),
      principal,
    ).first('f.id');
    if (!visible) throw new AppError('NOT_FOUND');
  }
  return { access, flow };
}

/** The caller's access to the workspace and flow of one document (NOT_FOUND when its flow is hidden from them). */
export async function documentAccess(trx: Knex, caller: Principal | GuestPrincipal, documentId: string) {
  if ('oneTimeUserId' in caller) return guestDocumentAccess(trx, caller, documentId);
  const principal = caller;
  const document = await trx('documents').where('id', documentId).first();
  if (!document) throw new AppError('NOT_FOUND');
  const { access, flow } = await flowAccess(trx, principal, document.business_flow_id);
  return { access, flow, document };
}

/** A guest's access to a document: in the guest's flow and carrying a task of theirs, else NOT_FOUND. */
async function guestDocumentAccess(trx: Knex, guest: GuestPrincipal, documentId: string) {
  const document = await trx('documents as d')
    .where({ 'd.id': documentId, 'd.business_flow_id': guest.businessFlowId })
    .whereExists(
      trx('tasks as t')
        .whereRaw('t.document_id = d.id')
        .where('t.one_time_user_id', guest.oneTimeUserId)
        .select(trx.raw('1')),
    )
    .first('d.*');
  if (!document) throw new AppError('NOT_FOUND');
  const flow = await trx('business_flows').where('id', document.business_flow_id).first();
  // A guest never reaches a draft (nothing was sent to them yet).
  if (flow.status === 'draft') throw new AppError('NOT_FOUND');
  const workspace = await trx('workspaces')
    .where('id', flow.workspace_id)
    .first('id', 'organization_id', 'name', 'mail_notification');
  const access: WorkspaceAccess = {
    workspaceId: workspace.id,
    ownerOrganizationId: workspace.organization_id,
    workspaceName: workspace.name,
    mailNotification: workspace.mail_notification,
    isOwnerOrganization: false,
    isOwnerAdmin: false,
    canSeeAllFlows: false,
    canEdit: false,
    groupIds: [],
    partnerOrganizationId: null,
  };
  return { access, flow, document };
}
