import type { GuestSessions } from '../../auth/guest-sessions.ts';
import { perIp, perUser } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { resolveCredential, sendAuthCode } from './auth-codes.ts';
import { inviteOneTimeUser } from './invite.ts';
import { listFlowInvitations, listOneTimeUsers } from './list.ts';
import { cancelInvitation, reinvite, resendInvitation } from './manage.ts';
import { invitationById, invitationResource, maskEmail } from './model.ts';
import { claimQrInvitation, getQrInvitation, openQrCode } from './qr.ts';
import { refreshOneTime, signInOneTime } from './sign-in.ts';
import { acceptTerms, guestMe } from './terms.ts';

const authBody = (attributes: { authorizationToken: string; refreshToken: string; businessFlowId: string }) => ({
  data: { type: 'OneTimeAuth' as const, attributes },
});

/**
 * One-time (guest) users: invitations a member manages (invite by e-mail or QR code, cancel, re-send, re-invite, QR
 * code, lists) and the guest's own sign-in (link or access code plus a mailed code), session and terms consent.
 */
export function oneTimeUserRoutes(api: ApiRouter, deps: CoreDeps, guestSessions: GuestSessions): void {
  const { knex } = deps;
  const invitationMails = [perUser('oneTimeInvitationMailPerUser')];
  const lookups = [perIp('oneTimeLinkLookupPerIp')];

  const invitation = async (id: string) => ({
    data: invitationResource(await invitationById(knex, id), deps.clock.now()),
  });

  api.operation('listOneTimeUsers', async ({ principal, params }) => ({
    body: await listOneTimeUsers(knex, principal, params.workspaceId, deps.clock.now()),
  }));

  api.operation('listOneTimeInvitations', async ({ principal, params }) => ({
    body: await listFlowInvitations(knex, principal, params.businessFlowId, deps.clock.now()),
  }));

  api.operation('inviteOneTimeUser', { rateLimit: invitationMails }, async ({ principal, params, body, req }) => {
    const id = await knex.transaction((trx) =>
      inviteOneTimeUser(deps, trx, principal, req, params.businessFlowId, body.data.attributes),
    );
    return { status: 201, body: await invitation(id) };
  });

  api.operation('cancelOneTimeInvitation', async ({ principal, params, body, req }) => {
    const { lockVersion } = body.data.attributes;
    await knex.transaction((trx) =>
      cancelInvitation(deps, guestSessions, trx, principal, req, params.invitationId, lockVersion),
    );
    return { body: await invitation(params.invitationId) };
  });

  api.operation('resendOneTimeInvitation', { rateLimit: invitationMails }, async ({ principal, params, body, req }) => {
    const { lockVersion } = body.data.attributes;
    await knex.transaction((trx) =>
      resendInvitation(deps, guestSessions, trx, principal, req, params.invitationId, lockVersion),
    );
    return { body: await invitation(params.invitationId) };
  });

  api.operation('reinviteOneTimeUser', { rateLimit: invitationMails }, async ({ principal, params, body, req }) => {
    const { lockVersion } = body.data.attributes;
    await knex.transaction((trx) => reinvite(deps, trx, principal, req, params.invitationId, lockVersion));
    return { body: await invitation(params.invitationId) };
  });

  api.operation('openOneTimeQrCode', async ({ principal, params, req }) => {
    const qr = await knex.transaction((trx) => openQrCode(deps, trx, principal, req, params.invitationId));
    return {
      status: 201,
      body: {
        data: {
          type: 'OneTimeQrCode' as const,
          attributes: { url: qr.url, svg: qr.svg, expiresAt: qr.expiresAt.toISOString() },
        },
      },
    };
  });

  api.operation('getOneTimeInvitation', { rateLimit: lookups }, async ({ query }) => {
    const found = await resolveCredential(knex, query, deps.clock.now(), { pointerBase: '' });
    const row = await knex('one_time_invitations').where({ id: found.id }).first('link_expires_at');
    return {
      body: {
        data: {
          type: 'OneTimeInvitationLookup' as const,
          attributes: {
            organizationName: found.owner_name,
            businessFlowName: found.flow_name,
            name: found.user_name,
            maskedEmail: found.user_email ? maskEmail(found.user_email) : null,
            status: found.status as 'invited' | 'registered',
            linkExpiresAt: (row.link_expires_at as Date).toISOString(),
          },
        },
      },
    };
  });

  api.operation('sendOneTimeAuthCode', { rateLimit: [perIp('oneTimeCodeMailPerIp')] }, async ({ body, req }) => {
    const sent = await knex.transaction(async (trx) => {
      const found = await resolveCredential(trx, body.data.attributes, deps.clock.now(), { lock: true });
      return sendAuthCode(deps, trx, found, req);
    });
    return {
      status: 202,
      body: {
        data: {
          type: 'OneTimeAuthCode' as const,
          attributes: { maskedEmail: sent.maskedEmail, expiresAt: sent.expiresAt.toISOString() },
        },
      },
    };
  });

  api.operation('signInOneTime', { rateLimit: [perIp('oneTimeSignInPerIp')] }, async ({ body, req }) => {
    const { code, ...credential } = body.data.attributes;
    return { status: 201, body: authBody(await signInOneTime(deps, guestSessions, credential, code, req)) };
  });

  api.operation('refreshOneTimeAuth', async ({ body }) => ({
    body: authBody(await refreshOneTime(deps, guestSessions, body.data.attributes.refreshToken)),
  }));

  api.guestOperation('signOutOneTime', {}, async ({ guest }) => {
    await guestSessions.revoke(knex, guest.sessionId, 'sign-out');
    return { status: 204 };
  });

  api.guestOperation('getOneTimeMe', {}, async ({ guest }) => ({ body: await guestMe(knex, guest, deps.clock.now()) }));

  api.guestOperation('acceptOneTimeTerms', {}, async ({ guest, body, req }) => {
    await knex.transaction((trx) => acceptTerms(deps, trx, guest, req, body.data.attributes.termId));
    return { status: 201, body: await guestMe(knex, guest, deps.clock.now()) };
  });

  api.operation('getOneTimeQrInvitation', { rateLimit: lookups }, async ({ params }) => {
    const qr = await getQrInvitation(deps, params.qrToken);
    return {
      body: {
        data: {
          type: 'OneTimeQrInvitation' as const,
          attributes: {
            organizationName: qr.organizationName,
            businessFlowName: qr.businessFlowName,
            expiresAt: qr.expiresAt.toISOString(),
          },
        },
      },
    };
  });

  api.operation(
    'claimOneTimeQrInvitation',
    { rateLimit: [perIp('oneTimeQrClaimPerIp')] },
    async ({ params, body, req }) => {
      const claimed = await knex.transaction((trx) =>
        claimQrInvitation(deps, trx, req, params.qrToken, body.data.attributes),
      );
      return {
        status: 201,
        body: {
          data: {
            type: 'OneTimeQrClaim' as const,
            attributes: {
              token: claimed.token,
              maskedEmail: claimed.maskedEmail,
              expiresAt: claimed.expiresAt.toISOString(),
            },
          },
        },
      };
    },
  );
}
