/*
 * A guest's sign-in: the link (or access code) and the mailed 6-digit code start a guest session on the invitation's
 * business flow. The first success registers the one-time user (counted once in the organization's `oneTimeUsers`
 * usage) and the invitation. Refused codes are committed before the refusal is answered.
 */
import type { Knex } from 'knex';
import type { GuestSessions } from '../../auth/guest-sessions.ts';
import type { TokenPair } from '../../auth/sessions.ts';
import { hashOpaqueToken } from '../../auth/tokens.ts';
import type { CoreDeps } from '../../deps.ts';
import type { RequestContext } from '../../http/context.ts';
import type { AppError } from '../../http/errors.ts';
import { recordUsage } from '../usage/counters.ts';
import { queueOneTimeInvitationAccepted } from '../events/flow-events.ts';
import { checkAuthCode, type CredentialInvitation, type LinkCredential, resolveCredential } from './auth-codes.ts';

async function register(deps: CoreDeps, trx: Knex.Transaction, invitation: CredentialInvitation, req: RequestContext) {
  const now = deps.clock.now();
  const firstTime = await trx('one_time_users')
    .where({ id: invitation.one_time_user_id, status: 'invited' })
    .update({ status: 'registered', registered_at: now, updated_at: now });
  if (firstTime > 0) await recordUsage(trx, invitation.organization_id, 'oneTimeUsers', 1, now);
  const invitationRegistered = await trx('one_time_invitations')
    .where({ id: invitation.id, status: 'invited' })
    .update({ status: 'registered', registered_at: now, lock_version: trx.raw('lock_version + 1'), updated_at: now });
  const details = { oneTimeUserId: invitation.one_time_user_id, email: invitation.user_email };
  if (invitationRegistered > 0) {
    await queueOneTimeInvitationAccepted(deps, trx, {
      invitationId: invitation.id,
      oneTimeUserId: invitation.one_time_user_id,
      businessFlowId: invitation.business_flow_id,
    });
    await deps.oplog.append(trx, req, {
      action: 'one_time_user.registered',
      organizationId: invitation.organization_id,
      targetType: 'one_time_invitation',
      targetId: invitation.id,
      details: { ...details, businessFlowId: invitation.business_flow_id, firstTime: firstTime > 0 },
    });
  }
  await deps.oplog.append(trx, req, {
    action: 'one_time_user.signed_in',
    organizationId: invitation.organization_id,
    targetType: 'one_time_invitation',
    targetId: invitation.id,
    details,
  });
}

export async function signInOneTime(
  deps: CoreDeps,
  guestSessions: GuestSessions,
  credential: LinkCredential,
  code: string,
  req: RequestContext,
): Promise<TokenPair & { businessFlowId: string }> {
  const outcome = await deps.knex.transaction(
    async (trx): Promise<{ refusal: AppError } | { pair: TokenPair; businessFlowId: string }> => {
      const invitation = await resolveCredential(trx, credential, deps.clock.now(), { lock: true });
      const checked = await checkAuthCode(deps, trx, invitation, code);
      if ('refusal' in checked) return checked;
      await trx('one_time_auth_codes').where({ id: checked.codeId }).update({ used_at: deps.clock.now() });
      await register(deps, trx, invitation, req);
      const pair = await guestSessions.start(
        trx,
        {
          oneTimeUserId: invitation.one_time_user_id,
          invitationId: invitation.id,
          businessFlowId: invitation.business_flow_id,
          organizationId: invitation.organization_id,
        },
        req,
      );
      return { pair, businessFlowId: invitation.business_flow_id };
    },
  );
  if ('refusal' in outcome) throw outcome.refusal;
  return { ...outcome.pair, businessFlowId: outcome.businessFlowId };
}

/** Exchanges a refresh token; answers the flow of its session too. */
export async function refreshOneTime(deps: CoreDeps, guestSessions: GuestSessions, refreshToken: string) {
  const pair = await guestSessions.refresh(refreshToken);
  const session = await deps
    .knex('guest_sessions as s')
    .join('one_time_invitations as i', 'i.id', 's.invitation_id')
    .where('s.refresh_token_hash', hashOpaqueToken(pair.refreshToken))
    .first('i.business_flow_id');
  return { ...pair, businessFlowId: session.business_flow_id as string };
}
