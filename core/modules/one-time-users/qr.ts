/*
 * QR invitations: the member opens a QR code (valid 10 minutes; reopening kills the earlier one) on the QR screen,
 * the guest scans it, enters name and e-mail, and continues like a link guest with the 6-digit code already mailed.
 * A claimed QR code is used up.
 */
import type { Knex } from 'knex';
import QRCode from 'qrcode';
import { hashOpaqueToken, newOpaqueToken } from '../../auth/tokens.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { isUniqueViolation } from '../users/validation.ts';
import { lockInvitation } from './access.ts';
import { resolveCredential, sendAuthCode } from './auth-codes.ts';
import { rotateInvitationLink } from './links.ts';

export const QR_VALIDITY_MINUTES = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export async function openQrCode(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  req: RequestContext,
  invitationId: string,
) {
  const { invitation, user } = await lockInvitation(trx, principal, invitationId, null);
  if (invitation.channel !== 'qr' || invitation.status !== 'invited' || user.email) {
    throw new AppError('ONE_TIME_INVITATION_STATUS_INVALID');
  }
  const now = deps.clock.now();
  const token = newOpaqueToken();
  const expiresAt = new Date(now.getTime() + QR_VALIDITY_MINUTES * 60_000);
  await trx('one_time_invitations')
    .where({ id: invitationId })
    .update({ qr_token_hash: hashOpaqueToken(token), qr_expires_at: expiresAt, updated_at: now });
  await deps.oplog.append(trx, req, {
    action: 'one_time_invitation.qr_opened',
    organizationId: principal.organizationId,
    actorUserId: principal.userId,
    targetType: 'one_time_invitation',
    targetId: invitationId,
    details: {
      oneTimeUserId: user.id,
      businessFlowId: invitation.business_flow_id,
      expiresAt: expiresAt.toISOString(),
    },
  });
  const url = `${deps.config.publicUrl}/onetime/qr/${encodeURIComponent(token)}`;
  const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { url, svg, expiresAt };
}

/** The invitation behind a live QR code: 404 INVITATION_LINK_INVALID when unknown or used, 410 QR_CODE_EXPIRED. */
async function qrInvitation(trx: Knex, qrToken: string, now: Date, lock: boolean) {
  const query = trx('one_time_invitations as i')
    .join('business_flows as f', 'f.id', 'i.business_flow_id')
    .join('organizations as o', 'o.id', 'f.organization_id')
    .where('i.qr_token_hash', hashOpaqueToken(qrToken))
    .first('i.*', 'f.name as flow_name', 'f.workspace_id', 'o.name as owner_name');
  if (lock) query.forUpdate('i');
  const invitation = await query;
  if (!invitation || invitation.status !== 'invited') throw new AppError('INVITATION_LINK_INVALID');
  if ((invitation.qr_expires_at as Date).getTime() <= now.getTime()) throw new AppError('QR_CODE_EXPIRED');
  return invitation;
}

export async function getQrInvitation(deps: CoreDeps, qrToken: string) {
  const invitation = await qrInvitation(deps.knex, qrToken, deps.clock.now(), false);
  return {
    organizationName: invitation.owner_name as string,
    businessFlowName: invitation.flow_name as string,
    expiresAt: invitation.qr_expires_at as Date,
  };
}

export async function claimQrInvitation(
  deps: CoreDeps,
  trx: Knex.Transaction,
  req: RequestContext,
  qrToken: string,
  input: { name: string; email: string; locale?: 'ja' | 'en' },
) {
  const name = input.name.trim();
  const email = input.email.trim();
  if (!name) throw new AppError('VALIDATION_FAILED', { pointer: '/data/attributes/name', detail: 'name is required' });
  if (!EMAIL.test(email)) throw new AppError('EMAIL_INVALID', { pointer: '/data/attributes/email' });
  const now = deps.clock.now();
  const invitation = await qrInvitation(trx, qrToken, now, true);
  const taken = await trx('one_time_users')
    .where({ workspace_id: invitation.workspace_id })
    .whereNot({ id: invitation.one_time_user_id })
    .whereRaw('lower(email) = lower(?)', [email])
    .first('id');
  if (taken) throw new AppError('ONE_TIME_USER_EMAIL_TAKEN', { pointer: '/data/attributes/email' });
  try {
    await trx('one_time_users')
      .where({ id: invitation.one_time_user_id })
      .update({ name, email, locale: input.locale ?? req.locale, updated_at: now });
  } catch (error) {
    if (isUniqueViolation(error, 'one_time_users_workspace_email')) {
      throw new AppError('ONE_TIME_USER_EMAIL_TAKEN', { pointer: '/data/attributes/email' });
    }
    throw error;
  }
  await trx('one_time_invitations')
    .where({ id: invitation.id })
    .update({ qr_token_hash: null, qr_expires_at: null, updated_at: now });
  const link = await rotateInvitationLink(deps, trx, invitation.id as string);
  await deps.oplog.append(trx, req, {
    action: 'one_time_invitation.qr_claimed',
    organizationId: invitation.organization_id,
    targetType: 'one_time_invitation',
    targetId: invitation.id,
    details: { oneTimeUserId: invitation.one_time_user_id, email, businessFlowId: invitation.business_flow_id },
  });
  const resolved = await resolveCredential(trx, { token: link.token }, now);
  const sent = await sendAuthCode(deps, trx, resolved, req);
  return { token: link.token, ...sent };
}
