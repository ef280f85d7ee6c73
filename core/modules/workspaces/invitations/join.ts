/*
 * The invitee's side of a partner invitation: the public look-up by token (who invites whom into which workspace)
 * and the acceptance, which makes the caller's organization a partner participant (kind 'organization') with the
 * flags the owner chose.
 *
 * Who may accept: an administrator of the joining organization, or the user whose e-mail address is the invited
 * one (the owner chose that person). The owner organization cannot accept its own invitation, and an organization
 * already taking part is refused (409 WORKSPACE_PARTICIPANT_DUPLICATE): nobody joins twice. A dead link is one of
 * three answers, each with its own page on the web: unknown, replaced by a re-send or cancelled (404
 * WORKSPACE_INVITATION_INVALID), past its lifetime (410 WORKSPACE_INVITATION_EXPIRED), already accepted (410
 * WORKSPACE_INVITATION_USED).
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../../deps.ts';
import { queueWorkspaceInvitationAccepted } from '../../events/flow-events.ts';
import type { Principal, RequestContext } from '../../../http/context.ts';
import { AppError } from '../../../http/errors.ts';
import { insertParticipants } from '../participants.ts';
import { invitationTokenHash } from './links.ts';

type Row = Record<string, any>;

/** The live invitation of a token for this workspace, or the error that names why the link is dead. */
export async function liveInvitation(deps: CoreDeps, trx: Knex, token: string, forUpdate = false): Promise<Row> {
  const query = trx('workspace_invitations').where({ token_hash: invitationTokenHash(token) });
  if (forUpdate) query.forUpdate();
  const row: Row | undefined = await query.first();
  if (!row || row.status === 'cancelled') {
    throw new AppError('WORKSPACE_INVITATION_INVALID');
  }
  if (row.status === 'accepted') throw new AppError('WORKSPACE_INVITATION_USED');
  if (new Date(row.expires_at).getTime() <= deps.clock.now().getTime()) {
    throw new AppError('WORKSPACE_INVITATION_EXPIRED');
  }
  return row;
}

/** What the join page shows: who (organization, person) invites which address into which workspace. */
export async function invitationSummary(deps: CoreDeps, token: string) {
  const row = await liveInvitation(deps, deps.knex, token);
  const details = await deps
    .knex('workspaces as w')
    .join('organizations as o', 'o.id', 'w.organization_id')
    .where('w.id', row.workspace_id)
    .first('w.name as workspace_name', 'o.name as organization_name');
  const inviter = row.invited_by ? await deps.knex('users').where({ id: row.invited_by }).first('name') : null;
  return {
    type: 'WorkspaceInvitationSummary' as const,
    id: row.id as string,
    attributes: {
      workspace: { id: row.workspace_id as string, name: details.workspace_name as string },
      organization: { id: row.organization_id as string, name: details.organization_name as string },
      inviterName: (inviter?.name as string | undefined) ?? null,
      email: row.email as string,
      isPublic: row.is_public as boolean,
      isEditable: row.is_editable as boolean,
      expiresAt: new Date(row.expires_at).toISOString(),
    },
  };
}

export async function acceptInvitation(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  token: string,
): Promise<string> {
  const row = await liveInvitation(deps, trx, token, true);
  const workspaceId = row.workspace_id as string;
  if (row.organization_id === principal.organizationId) throw new AppError('PARTNER_IS_OWN_ORGANIZATION');
  if (!principal.isAdmin) {
    const user = await trx('users').where({ id: principal.userId }).first('email');
    const invited = String(row.email).toLowerCase();
    if (!user || String(user.email).toLowerCase() !== invited) {
      throw new AppError('WORKSPACE_INVITATION_ACCEPT_FORBIDDEN');
    }
  }
  // The workspace row first: the same lock participant changes take, so two acceptances cannot interleave.
  await trx('workspaces').where({ id: workspaceId }).forUpdate().first('id');
  const already = await trx('workspace_participants')
    .where({ workspace_id: workspaceId, partner_organization_id: principal.organizationId })
    .first('id');
  if (already) throw new AppError('WORKSPACE_PARTICIPANT_DUPLICATE');
  const now = deps.clock.now();
  const [participant] = await insertParticipants(trx, row.organization_id, workspaceId, [
    {
      kind: 'organization',
      group_id: null,
      partner_organization_id: principal.organizationId,
      is_public: row.is_public,
      is_editable: row.is_editable,
    },
  ]);
  await trx('workspaces')
    .where({ id: workspaceId })
    .update({ updated_at: now, lock_version: trx.raw('lock_version + 1') });
  await trx('workspace_invitations')
    .where({ id: row.id })
    .update({
      status: 'accepted',
      accepted_organization_id: principal.organizationId,
      accepted_by: principal.userId,
      accepted_at: now,
      updated_at: now,
      lock_version: row.lock_version + 1,
    });
  const details = {
    invitationId: row.id,
    participantId: participant.id,
    email: row.email,
    organizationId: principal.organizationId,
    isPublic: row.is_public,
    isEditable: row.is_editable,
  };
  await queueWorkspaceInvitationAccepted(deps, trx, {
    invitationId: row.id,
    workspaceId,
    ownerOrganizationId: row.organization_id,
    partnerOrganizationId: principal.organizationId,
  });
  // Both organizations' logs tell it: the owner's (its workspace gained a partner) and the joining one's.
  for (const organizationId of [row.organization_id, principal.organizationId]) {
    await deps.oplog.append(trx, req, {
      action: 'workspace.invitation_accepted',
      organizationId,
      actorUserId: principal.userId,
      targetType: 'workspace',
      targetId: workspaceId,
      details,
    });
  }
  return workspaceId;
}
