/*
 * The invitation mail: the inviting organization and member, the flow, the personal link and the 16-character access
 * code (both secret parameters: sealed until delivery, never in a job) and when they die. Every mail issues a new link
 * and code (rotateInvitationLink), so the earlier ones die. In a draft flow nothing is mailed: the invitation is
 * marked mail_pending and mailed when the flow is sent (sendPendingInvitations).
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal } from '../../http/context.ts';
import { rotateInvitationLink } from './links.ts';
import { invitationById, mailTime, organizationName } from './model.ts';

/**
 * Mails the invitation to its one-time user with a fresh link and access code; the caller checked it may. In a draft
 * flow it only marks the invitation mail_pending (answers false).
 */
export async function sendInvitationMail(
  deps: CoreDeps,
  trx: Knex.Transaction,
  principal: Principal,
  invitationId: string,
): Promise<boolean> {
  const invitation = await invitationById(trx, invitationId);
  if (!invitation.user_email) throw new Error(`one-time invitation ${invitationId} has no e-mail address yet`);
  const flow = await trx('business_flows').where({ id: invitation.business_flow_id }).first('status');
  if (flow?.status === 'draft') {
    await trx('one_time_invitations').where({ id: invitationId }).update({ mail_pending: true });
    return false;
  }
  const link = await rotateInvitationLink(deps, trx, invitationId);
  const inviter = await trx('users').where({ id: principal.userId }).first('name');
  const workspace = await trx('workspaces').where({ id: invitation.workspace_id }).first('name');
  await deps.mailer.send(trx, {
    kind: 'one-time-invitation',
    to: invitation.user_email,
    locale: invitation.user_locale,
    params: {
      userName: invitation.user_name ?? '',
      organizationName: await organizationName(trx, principal.organizationId),
      inviterName: (inviter?.name as string | undefined) ?? '',
      workspaceName: (workspace?.name as string | undefined) ?? '',
      businessFlowName: invitation.flow_name,
      link: link.url,
      accessCode: link.accessCode,
      expiresAt: mailTime(link.expiresAt),
    },
    organizationId: principal.organizationId,
    userId: null,
  });
  await trx('one_time_invitations').where({ id: invitationId }).update({ mail_pending: false });
  return true;
}
