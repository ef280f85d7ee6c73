/*
 * Workspace participants: own groups and partner organizations, each with its public / editable flags. Every change
 * goes through the workspace's lockVersion (it is bumped), is checked against who may manage the workspace, and is
 * written to the operation log in the same transaction.
 */
import type { Knex } from 'knex';
import { updateWithLock } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import type { Principal } from '../../http/context.ts';
import type { Actor } from '../users/service.ts';
import { isUniqueViolation } from '../users/validation.ts';
import { manageableWorkspace } from './manage.ts';
import { logWorkspaceChange } from './log.ts';

export interface ParticipantInput {
  kind: 'group' | 'organization';
  groupId?: string;
  organizationId?: string;
  corporateNumber?: string;
  isPublic?: boolean;
  isEditable?: boolean;
}

/** A participant input resolved to the row it becomes. */
export interface ResolvedParticipant {
  kind: 'group' | 'organization';
  group_id: string | null;
  partner_organization_id: string | null;
  is_public: boolean;
  is_editable: boolean;
}

/** Resolves one input against the owner organization: its own group, or another registered organization. */
export async function resolveParticipant(
  trx: Knex,
  organizationId: string,
  input: ParticipantInput,
  pointer: string,
): Promise<ResolvedParticipant> {
  // A partner sees only the flows it has tasks in unless made public: an own group sees every flow by default.
  const flags = { is_public: input.isPublic ?? input.kind === 'group', is_editable: input.isEditable ?? false };
  if (input.kind === 'group') {
    if (!input.groupId) throw new AppError('VALIDATION_FAILED', { pointer: `${pointer}/groupId` });
    const group = await trx('groups').where({ id: input.groupId, organization_id: organizationId }).first('id');
    if (!group) throw new AppError('REFERENCE_NOT_FOUND', { pointer: `${pointer}/groupId` });
    return { kind: 'group', group_id: group.id, partner_organization_id: null, ...flags };
  }
  const partnerId = await findOrganizationId(trx, input);
  if (!partnerId) throw new AppError('PARTNER_ORGANIZATION_NOT_FOUND', { pointer: partnerPointer(pointer, input) });
  if (partnerId === organizationId) {
    throw new AppError('PARTNER_IS_OWN_ORGANIZATION', { pointer: partnerPointer(pointer, input) });
  }
  return { kind: 'organization', group_id: null, partner_organization_id: partnerId, ...flags };
}

const partnerPointer = (pointer: string, input: ParticipantInput) =>
  `${pointer}/${input.organizationId ? 'organizationId' : 'corporateNumber'}`;

async function findOrganizationId(trx: Knex, input: ParticipantInput): Promise<string | null> {
  if (!input.organizationId && !input.corporateNumber) return null;
  const query = trx('organizations');
  if (input.organizationId) query.where('id', input.organizationId);
  else query.where('corporate_number', input.corporateNumber!);
  const row = await query.first('id');
  return row?.id ?? null;
}

/** The identity of a participant: its group or its partner organization. */
export const participantKey = (p: ResolvedParticipant) => p.group_id ?? `org:${p.partner_organization_id}`;

/** Inserts participant rows, turning a duplicate into 409 WORKSPACE_PARTICIPANT_DUPLICATE. */
export async function insertParticipants(
  trx: Knex.Transaction,
  organizationId: string,
  workspaceId: string,
  participants: ResolvedParticipant[],
) {
  if (participants.length === 0) return [];
  try {
    return await trx('workspace_participants')
      .insert(participants.map((p) => ({ ...p, organization_id: organizationId, workspace_id: workspaceId })))
      .returning('id');
  } catch (error) {
    const duplicate =
      isUniqueViolation(error, 'workspace_participants_workspace_id_group_id_unique') ||
      isUniqueViolation(error, 'workspace_participants_workspace_id_partner_organization_id_unique');
    if (duplicate) throw new AppError('WORKSPACE_PARTICIPANT_DUPLICATE', { cause: error });
    throw error;
  }
}

/** Bumps the workspace's lockVersion for a participant change (409 when stale). */
function bumpWorkspace(deps: CoreDeps, trx: Knex.Transaction, organizationId: string, id: string, lockVersion: number) {
  return updateWithLock(trx, 'workspaces', { id, organization_id: organizationId }, lockVersion, {
    updated_at: deps.clock.now(),
  });
}

export async function addParticipant(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  workspaceId: string,
  input: ParticipantInput & { lockVersion: number },
) {
  const access = await manageableWorkspace(trx, principal, workspaceId);
  const resolved = await resolveParticipant(trx, access.ownerOrganizationId, input, '/data/attributes');
  await bumpWorkspace(deps, trx, access.ownerOrganizationId, workspaceId, input.lockVersion);
  const existing = await trx('workspace_participants')
    .where({ workspace_id: workspaceId })
    .where((w) =>
      resolved.group_id
        ? w.where('group_id', resolved.group_id)
        : w.where('partner_organization_id', resolved.partner_organization_id!),
    )
    .first('id');
  if (existing) throw new AppError('WORKSPACE_PARTICIPANT_DUPLICATE');
  const [row] = await insertParticipants(trx, access.ownerOrganizationId, workspaceId, [resolved]);
  await logWorkspaceChange(deps, trx, actor, 'workspace.participant_added', workspaceId, {
    participantId: row.id,
    ...describe(resolved),
  });
}

function describe(p: Pick<ResolvedParticipant, 'kind' | 'group_id' | 'partner_organization_id'> & Flags) {
  return {
    kind: p.kind,
    groupId: p.group_id,
    organizationId: p.partner_organization_id,
    isPublic: p.is_public,
    isEditable: p.is_editable,
  };
}

type Flags = { is_public: boolean; is_editable: boolean };

async function participantOf(trx: Knex.Transaction, workspaceId: string, participantId: string) {
  const row = await trx('workspace_participants')
    .where({ id: participantId, workspace_id: workspaceId })
    .forUpdate()
    .first();
  if (!row) throw new AppError('NOT_FOUND');
  return row as ResolvedParticipant & { id: string };
}

export async function updateParticipant(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  ids: { workspaceId: string; participantId: string },
  input: { lockVersion: number; isPublic?: boolean; isEditable?: boolean },
) {
  const access = await manageableWorkspace(trx, principal, ids.workspaceId);
  const before = await participantOf(trx, ids.workspaceId, ids.participantId);
  await bumpWorkspace(deps, trx, access.ownerOrganizationId, ids.workspaceId, input.lockVersion);
  const patch: Flags = {
    is_public: input.isPublic ?? before.is_public,
    is_editable: input.isEditable ?? before.is_editable,
  };
  await trx('workspace_participants').where({ id: ids.participantId }).update(patch);
  await logWorkspaceChange(deps, trx, actor, 'workspace.participant_updated', ids.workspaceId, {
    participantId: ids.participantId,
    before: describe(before),
    after: describe({ ...before, ...patch }),
  });
}

export async function removeParticipant(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  ids: { workspaceId: string; participantId: string },
  lockVersion: number,
) {
  const access = await manageableWorkspace(trx, principal, ids.workspaceId);
  const participant = await participantOf(trx, ids.workspaceId, ids.participantId);
  await bumpWorkspace(deps, trx, access.ownerOrganizationId, ids.workspaceId, lockVersion);
  if (participant.kind === 'group') await assertAnotherGroupRemains(trx, ids);
  if (await hasOpenTasks(trx, ids.workspaceId, participant)) throw new AppError('WORKSPACE_PARTICIPANT_IN_USE');
  await trx('workspace_participants').where({ id: ids.participantId }).delete();
  await logWorkspaceChange(deps, trx, actor, 'workspace.participant_removed', ids.workspaceId, {
    participantId: ids.participantId,
    ...describe(participant),
  });
}

async function assertAnotherGroupRemains(trx: Knex.Transaction, ids: { workspaceId: string; participantId: string }) {
  const other = await trx('workspace_participants')
    .where({ workspace_id: ids.workspaceId, kind: 'group' })
    .whereNot('id', ids.participantId)
    .first('id');
  if (!other) throw new AppError('WORKSPACE_PARTICIPANT_REQUIRED');
}

/** Whether a document of the workspace that is not cancelled has a task assigned to the participant. */
async function hasOpenTasks(trx: Knex.Transaction, workspaceId: string, participant: ResolvedParticipant) {
  const hit = await trx('tasks as t')
    .join('documents as d', 'd.id', 't.document_id')
    .join('business_flows as f', 'f.id', 'd.business_flow_id')
    .where('f.workspace_id', workspaceId)
    .whereNot('d.status', 'cancelled')
    .where((w) =>
      participant.group_id
        ? w.where('t.group_id', participant.group_id)
        : w.where('t.partner_organization_id', participant.partner_organization_id!),
    )
    .first(trx.raw('1 AS hit'));
  return Boolean(hit);
}
