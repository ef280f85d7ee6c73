/*
 * The owner's side of partner invitations: list, invite, cancel and re-send. Only who may manage the workspace
 * (core/modules/workspaces/manage.ts: an administrator of the owner organization, or a member of an editable own
 * group) may; another organization never learns that an invitation exists (404).
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../../deps.ts';
import type { Principal } from '../../../http/context.ts';
import { AppError, type Locale } from '../../../http/errors.ts';
import type { Actor } from '../../users/service.ts';
import { uniquely } from '../../users/validation.ts';
import { logWorkspaceChange } from '../log.ts';
import { manageableWorkspace } from '../manage.ts';
import { newInvitationLink, sendInvitationMail } from './links.ts';

export interface InvitationInput {
  email: string;
  locale?: Locale;
  isPublic?: boolean;
  isEditable?: boolean;
}

const UNIQUE_PENDING = {
  workspace_invitations_pending_email: { code: 'WORKSPACE_INVITATION_DUPLICATE', pointer: '/data/attributes/email' },
} as const;

export async function invitePartner(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  workspaceId: string,
  input: InvitationInput,
): Promise<string> {
  const access = await manageableWorkspace(trx, principal, workspaceId);
  const email = input.email.trim();
  const pending = await trx('workspace_invitations')
    .where({ workspace_id: workspaceId, status: 'pending' })
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id');
  if (pending) throw new AppError('WORKSPACE_INVITATION_DUPLICATE', { pointer: '/data/attributes/email' });
  const link = newInvitationLink(deps, workspaceId);
  const row = {
    organization_id: access.ownerOrganizationId,
    workspace_id: workspaceId,
    email,
    locale: input.locale ?? principal.locale,
    // Not public unless asked: the partner sees only the flows it has tasks in.
    is_public: input.isPublic ?? false,
    is_editable: input.isEditable ?? false,
    token_hash: link.tokenHash,
    expires_at: link.expiresAt,
    last_sent_at: link.sentAt,
    invited_by: actor.userId,
    created_at: link.sentAt,
    updated_at: link.sentAt,
  };
  const [inserted] = await uniquely(() => trx('workspace_invitations').insert(row).returning('id'), UNIQUE_PENDING);
  await sendInvitationMail(deps, trx, row, link, actor.userId);
  await logWorkspaceChange(deps, trx, actor, 'workspace.partner_invited', workspaceId, {
    invitationId: inserted.id,
    email,
    isPublic: row.is_public,
    isEditable: row.is_editable,
    expiresAt: link.expiresAt.toISOString(),
  });
  return inserted.id as string;
}

/** The invitation for a change by the owner side: row-locked, 404 for anyone outside the owner organization. */
async function ownInvitation(trx: Knex.Transaction, principal: Principal, invitationId: string, lockVersion: number) {
  const row = await trx('workspace_invitations')
    .where({ id: invitationId, organization_id: principal.organizationId })
    .forUpdate()
    .first();
  if (!row) throw new AppError('NOT_FOUND');
  await manageableWorkspace(trx, principal, row.workspace_id);
  if (row.lock_version !== lockVersion) throw new AppError('UPDATED_BY_ANOTHER_USER');
  if (row.status !== 'pending') throw new AppError('WORKSPACE_INVITATION_NOT_PENDING');
  return row as Record<string, any>;
}

export async function cancelInvitation(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  invitationId: string,
  lockVersion: number,
): Promise<void> {
  const row = await ownInvitation(trx, principal, invitationId, lockVersion);
  const now = deps.clock.now();
  await trx('workspace_invitations')
    .where({ id: row.id })
    .update({ status: 'cancelled', cancelled_at: now, updated_at: now, lock_version: row.lock_version + 1 });
  await logWorkspaceChange(deps, trx, actor, 'workspace.invitation_cancelled', row.workspace_id, {
    invitationId: row.id,
    email: row.email,
  });
}

/** A new link (the earlier one dies) with a new lifetime, mailed again; also revives an expired invitation. */
export async function resendInvitation(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  principal: Principal,
  invitationId: string,
  lockVersion: number,
): Promise<void> {
  const row = await ownInvitation(trx, principal, invitationId, lockVersion);
  const link = newInvitationLink(deps, row.workspace_id);
  await trx('workspace_invitations')
    .where({ id: row.id })
    .update({
      token_hash: link.tokenHash,
      expires_at: link.expiresAt,
      last_sent_at: link.sentAt,
      sent_count: row.sent_count + 1,
      updated_at: link.sentAt,
      lock_version: row.lock_version + 1,
    });
  await sendInvitationMail(deps, trx, row as never, link, actor.userId);
  await logWorkspaceChange(deps, trx, actor, 'workspace.invitation_resent', row.workspace_id, {
    invitationId: row.id,
    email: row.email,
    expiresAt: link.expiresAt.toISOString(),
  });
}
