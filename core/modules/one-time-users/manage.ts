/*
 * A member's changes to one invitation: cancel (link, access code, QR code and every guest session die at once),
 * re-send (a new link and code by mail; the earlier ones and the guest's sessions end) and re-invite after a cancel.
 */
import type { Knex } from 'knex';
import type { GuestSessions } from '../../auth/guest-sessions.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { lockInvitation } from './access.ts';
import { sendInvitationMail } from './invitation-mail.ts';

type Locked = Awaited<ReturnType<typeof lockInvitation>>;

async function log(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  action: string,
  { invitation, user }: Locked,
) {
  await deps.oplog.append(trx, req, {
    action,
    organizationId: principal.organizationId,
    actorUserId: principal.userId,
    targetType: 'one_time_invitation',
    targetId: invitation.id,
    details: { oneTimeUserId: user.id, email: user.email, businessFlowId: invitation.business_flow_id },
  });
}

/** Unused 6-digit codes of the invitation die (set used). */
export async function voidAuthCodes(trx: Knex.Transaction, invitationId: string, now: Date): Promise<void> {
  await trx('one_time_auth_codes').where({ invitation_id: invitationId }).whereNull('used_at').update({ used_at: now });
}

export async function cancelInvitation(
  deps: CoreDeps,
  guestSessions: GuestSessions,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  invitationId: string,
  lockVersion: number,
): Promise<void> {
  const locked = await lockInvitation(trx, principal, invitationId, lockVersion);
  if (locked.invitation.status === 'cancelled') throw new AppError('ONE_TIME_INVITATION_STATUS_INVALID');
  const now = deps.clock.now();
  // The link's hashes stay, so opening it answers 410 INVITATION_CANCELLED rather than "unknown".
  await trx('one_time_invitations')
    .where({ id: invitationId })
    .update({
      status: 'cancelled',
      cancelled_at: now,
      qr_token_hash: null,
      qr_expires_at: null,
      lock_version: trx.raw('lock_version + 1'),
      updated_at: now,
    });
  await voidAuthCodes(trx, invitationId, now);
  await guestSessions.revokeInvitation(trx, invitationId, 'invitation-cancelled');
  await log(deps, trx, principal, req, 'one_time_invitation.cancelled', locked);
}

export async function resendInvitation(
  deps: CoreDeps,
  guestSessions: GuestSessions,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  invitationId: string,
  lockVersion: number,
): Promise<void> {
  const locked = await lockInvitation(trx, principal, invitationId, lockVersion);
  if (locked.invitation.status === 'cancelled' || !locked.user.email) {
    throw new AppError('ONE_TIME_INVITATION_STATUS_INVALID');
  }
  await sendInvitationMail(deps, trx, principal, invitationId);
  await guestSessions.revokeInvitation(trx, invitationId, 'invitation-resent');
  await log(deps, trx, principal, req, 'one_time_invitation.resent', locked);
}

export async function reinvite(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  invitationId: string,
  lockVersion: number,
): Promise<void> {
  const locked = await lockInvitation(trx, principal, invitationId, lockVersion);
  if (locked.invitation.status !== 'cancelled') throw new AppError('ONE_TIME_INVITATION_STATUS_INVALID');
  const flow = await trx('business_flows').where({ id: locked.invitation.business_flow_id }).first('status');
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  const now = deps.clock.now();
  // The cancelled link dies even when no mail goes (a QR invitation nobody claimed has no address yet).
  await trx('one_time_invitations')
    .where({ id: invitationId })
    .update({
      status: 'invited',
      cancelled_at: null,
      registered_at: null,
      link_token_hash: null,
      access_code_hash: null,
      link_expires_at: null,
      lock_version: trx.raw('lock_version + 1'),
      updated_at: now,
    });
  if (locked.user.email) await sendInvitationMail(deps, trx, principal, invitationId);
  await log(deps, trx, principal, req, 'one_time_invitation.reinvited', locked);
}
