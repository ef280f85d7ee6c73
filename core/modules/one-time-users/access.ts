/*
 * Who manages a flow's one-time invitations: a member who can see the flow and may edit its workspace (owner
 * organization or editable partner). Anyone who cannot see the flow gets 404, as for the flow itself.
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { assertCanEdit, flowAccess } from '../workspaces/access.ts';

/** The flow, checked visible and editable for the caller. */
export async function editableFlow(trx: Knex, principal: Principal, businessFlowId: string) {
  const { access, flow } = await flowAccess(trx, principal, businessFlowId);
  assertCanEdit(access);
  return { access, flow };
}

/**
 * Locks one invitation for a change by the caller: NOT_FOUND unless they can see its flow, 403 unless they may edit
 * its workspace, 409 UPDATED_BY_ANOTHER_USER on a stale lockVersion.
 */
export async function lockInvitation(
  trx: Knex.Transaction,
  principal: Principal,
  invitationId: string,
  lockVersion: number | null,
) {
  const invitation = await trx('one_time_invitations').where({ id: invitationId }).forUpdate().first();
  if (!invitation) throw new AppError('NOT_FOUND');
  const { flow } = await editableFlow(trx, principal, invitation.business_flow_id);
  if (lockVersion !== null && invitation.lock_version !== lockVersion) throw new AppError('UPDATED_BY_ANOTHER_USER');
  const user = await trx('one_time_users').where({ id: invitation.one_time_user_id }).first();
  return { invitation, user, flow };
}
