/*
 * Partner invitations by link: the owner lists, invites, cancels and re-sends; the invitee looks the link up
 * without signing in and accepts it signed in. Mails are rate-limited per user, token guesses per IP.
 */
import { perIp, perUser } from '../../../access/rate-limits.ts';
import type { ApiRouter } from '../../../contract/router.ts';
import type { CoreDeps } from '../../../deps.ts';
import type { Principal } from '../../../http/context.ts';
import { actorOf } from '../../users/service.ts';
import { manageableWorkspace } from '../manage.ts';
import { workspaceBody } from '../read.ts';
import { acceptInvitation, invitationSummary } from './join.ts';
import { cancelInvitation, invitePartner, resendInvitation } from './manage.ts';

type Row = Record<string, any>;

function invitationResource(row: Row, now: Date) {
  const expired = row.status === 'pending' && new Date(row.expires_at).getTime() <= now.getTime();
  return {
    type: 'WorkspaceInvitation' as const,
    id: row.id as string,
    attributes: {
      email: row.email as string,
      locale: row.locale as 'ja' | 'en',
      isPublic: row.is_public as boolean,
      isEditable: row.is_editable as boolean,
      status: (expired ? 'expired' : row.status) as 'pending' | 'expired' | 'accepted' | 'cancelled',
      expiresAt: new Date(row.expires_at).toISOString(),
      sentCount: row.sent_count as number,
      lastSentAt: new Date(row.last_sent_at).toISOString(),
      invitedBy: row.invited_by ? { id: row.invited_by as string, name: (row.inviter_name as string) ?? '' } : null,
      acceptedOrganization: row.accepted_organization_id
        ? { id: row.accepted_organization_id as string, name: (row.accepted_organization_name as string) ?? '' }
        : null,
      acceptedAt: row.accepted_at ? new Date(row.accepted_at).toISOString() : null,
      cancelledAt: row.cancelled_at ? new Date(row.cancelled_at).toISOString() : null,
      lockVersion: row.lock_version as number,
      createdAt: new Date(row.created_at).toISOString(),
    },
  };
}

export function workspaceInvitationRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;
  const mailLimits = { rateLimit: [perUser('invitationMailsPerUser')] };
  const linkLimits = { rateLimit: [perIp('invitationLinkPerIp')] };

  const invitationRows = () =>
    knex('workspace_invitations as i')
      .leftJoin('users as u', 'u.id', 'i.invited_by')
      .leftJoin('organizations as o', 'o.id', 'i.accepted_organization_id')
      .select('i.*', 'u.name as inviter_name', 'o.name as accepted_organization_name');

  const oneInvitation = async (id: string) => ({
    data: invitationResource(await invitationRows().where('i.id', id).first(), deps.clock.now()),
  });

  api.operation('listWorkspaceInvitations', async ({ principal, params }) => {
    await manageableWorkspace(knex, principal as Principal, params.workspaceId);
    const rows: Row[] = await invitationRows()
      .where('i.workspace_id', params.workspaceId)
      .orderBy('i.created_at', 'desc')
      .limit(500);
    const now = deps.clock.now();
    return { body: { data: rows.map((row) => invitationResource(row, now)) } };
  });

  api.operation('invitePartnerOrganization', mailLimits, async ({ principal, params, body, req }) => {
    const id = await knex.transaction((trx) =>
      invitePartner(deps, trx, actorOf(principal, req), principal, params.workspaceId, body.data.attributes),
    );
    return { status: 201, body: await oneInvitation(id) };
  });

  api.operation('cancelWorkspaceInvitation', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      cancelInvitation(
        deps,
        trx,
        actorOf(principal, req),
        principal,
        params.invitationId,
        body.data.attributes.lockVersion,
      ),
    );
    return { body: await oneInvitation(params.invitationId) };
  });

  api.operation('resendWorkspaceInvitation', mailLimits, async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      resendInvitation(
        deps,
        trx,
        actorOf(principal, req),
        principal,
        params.invitationId,
        body.data.attributes.lockVersion,
      ),
    );
    return { body: await oneInvitation(params.invitationId) };
  });

  api.operation('getWorkspaceInvitation', linkLimits, async ({ query }) => ({
    body: { data: await invitationSummary(deps, query.token) },
  }));

  api.operation('acceptWorkspaceInvitation', linkLimits, async ({ principal, body, req }) => {
    const workspaceId = await knex.transaction((trx) =>
      acceptInvitation(deps, trx, principal, req, body.data.attributes.token),
    );
    return { body: await workspaceBody(knex, principal, workspaceId) };
  });
}
