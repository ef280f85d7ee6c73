/*
 * Workspaces: create, update and delete. Every function takes the caller's transaction, checks who may act through
 * access.ts, writes, and appends the operation log in the same transaction:
 *
 *   createWorkspace(deps, trx, actor, principal, input)                 -> { id }
 *   updateWorkspace(deps, trx, actor, principal, workspaceId, patch)    -> void   (lockVersion)
 *   deleteWorkspace(deps, trx, actor, principal, workspaceId)           -> void   (409 WORKSPACE_HAS_BUSINESS_FLOWS)
 *   (participants: addParticipant, updateParticipant, removeParticipant live in ./participants.ts)
 */
import type { Knex } from 'knex';
import { updateWithLock } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import type { Actor } from '../users/service.ts';
import { uniquely } from '../users/validation.ts';
import { logWorkspaceChange } from './log.ts';
import { manageableWorkspace } from './manage.ts';
import {
  insertParticipants,
  type ParticipantInput,
  participantKey,
  type ResolvedParticipant,
  resolveParticipant,
} from './participants.ts';
import { memberGroupIds } from './access.ts';

export interface WorkspaceInput {
  name: string;
  systemLinkId?: string | null;
  description?: string | null;
  mailNotification?: boolean;
  participants?: ParticipantInput[];
}

export type WorkspacePatch = Partial<Omit<WorkspaceInput, 'participants'>> & { lockVersion: number };

const UNIQUE_WORKSPACE = {
  workspaces_organization_id_system_link_id_unique: {
    code: 'SYSTEM_LINK_ID_TAKEN',
    pointer: '/data/attributes/systemLinkId',
  },
} as const;

async function assertSystemLinkIdFree(trx: Knex, organizationId: string, systemLinkId: string, exceptId?: string) {
  const query = trx('workspaces').where({ organization_id: organizationId, system_link_id: systemLinkId });
  if (exceptId) query.whereNot('id', exceptId);
  if (await query.first('id')) {
    throw new AppError('SYSTEM_LINK_ID_TAKEN', { pointer: '/data/attributes/systemLinkId' });
  }
}

/** Resolves every participant input; duplicates are 409, and at least one own group must take part. */
async function resolveAll(trx: Knex, principal: Principal, inputs: ParticipantInput[]) {
  const resolved: ResolvedParticipant[] = [];
  for (const [index, input] of inputs.entries()) {
    const one = await resolveParticipant(
      trx,
      principal.organizationId,
      input,
      `/data/attributes/participants/${index}`,
    );
    if (resolved.some((r) => participantKey(r) === participantKey(one))) {
      throw new AppError('WORKSPACE_PARTICIPANT_DUPLICATE', { pointer: `/data/attributes/participants/${index}` });
    }
    resolved.push(one);
  }
  const groupIds = resolved.flatMap((r) => (r.group_id ? [r.group_id] : []));
  const own = principal.isAdmin
    ? groupIds
    : (await memberGroupIds(trx, principal.userId).whereIn('group_id', groupIds)).map((m) => m.group_id);
  if (own.length === 0)
    throw new AppError('WORKSPACE_PARTICIPANT_REQUIRED', { pointer: '/data/attributes/participants' });
  return resolved;
}

export async function createWorkspace(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  input: WorkspaceInput,
) {
  const systemLinkId = input.systemLinkId || null;
  if (systemLinkId) await assertSystemLinkIdFree(trx, actor.organizationId, systemLinkId);
  const participants = await resolveAll(trx, principal, input.participants ?? []);
  const now = deps.clock.now();
  const [workspace] = await uniquely(
    () =>
      trx('workspaces')
        .insert({
          organization_id: actor.organizationId,
          name: input.name,
          system_link_id: systemLinkId,
          description: input.description ?? null,
          mail_notification: input.mailNotification ?? true,
          created_by: actor.userId,
          created_at: now,
          updated_at: now,
        })
        .returning('id'),
    UNIQUE_WORKSPACE,
    { checkedBefore: true },
  );
  await insertParticipants(trx, actor.organizationId, workspace.id, participants);
  await logWorkspaceChange(deps, trx, actor, 'workspace.created', workspace.id, {
    name: input.name,
    systemLinkId,
    mailNotification: input.mailNotification ?? true,
    participants: participants.map((p) => ({ kind: p.kind, id: p.group_id ?? p.partner_organization_id })),
  });
  return { id: workspace.id as string };
}

export async function updateWorkspace(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  workspaceId: string,
  input: WorkspacePatch,
) {
  const access = await manageableWorkspace(trx, principal, workspaceId);
  const where = { id: workspaceId, organization_id: access.ownerOrganizationId };
  const before = await trx('workspaces').where(where).first();
  const patch: Record<string, unknown> = { updated_at: deps.clock.now() };
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description;
  if (input.mailNotification !== undefined) patch.mail_notification = input.mailNotification;
  if (input.systemLinkId !== undefined) {
    patch.system_link_id = input.systemLinkId || null;
    if (patch.system_link_id) {
      await assertSystemLinkIdFree(trx, access.ownerOrganizationId, patch.system_link_id as string, workspaceId);
    }
  }
  const after = await uniquely(
    () => updateWithLock<Record<string, any>>(trx, 'workspaces', where, input.lockVersion, patch),
    UNIQUE_WORKSPACE,
  );
  await logWorkspaceChange(deps, trx, actor, 'workspace.updated', workspaceId, {
    before: summary(before),
    after: summary(after),
  });
}

const summary = (row: Record<string, any>) => ({
  name: row.name,
  systemLinkId: row.system_link_id,
  description: row.description,
  mailNotification: row.mail_notification,
});

export async function deleteWorkspace(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  workspaceId: string,
) {
  const access = await manageableWorkspace(trx, principal, workspaceId);
  const row = await trx('workspaces')
    .where({ id: workspaceId, organization_id: access.ownerOrganizationId })
    .forUpdate()
    .first();
  if (!row) throw new AppError('NOT_FOUND');
  const flow = await trx('business_flows').where('workspace_id', workspaceId).first('id');
  if (flow) throw new AppError('WORKSPACE_HAS_BUSINESS_FLOWS');
  await trx('workspace_participants').where('workspace_id', workspaceId).delete();
  await trx('workspaces').where('id', workspaceId).delete();
  await logWorkspaceChange(deps, trx, actor, 'workspace.deleted', workspaceId, summary(row));
}
