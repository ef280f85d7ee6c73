/*
 * The join link of a partner invitation: `/workspaces/{workspaceId}/join?invitation=<token>`. The token is 32
 * random bytes (base64url), stored only as its SHA-256; a link lives INVITATION_VALIDITY_DAYS from the mail that
 * carried it, and a re-send replaces the token, so every earlier link is dead.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../../deps.ts';

/** How long a mailed join link stays usable. */
export const INVITATION_VALIDITY_DAYS = 7;

export const invitationTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** A new token, its hash and the expiry of the link that carries it. */
export function newInvitationLink(deps: CoreDeps, workspaceId: string) {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  return {
    token,
    tokenHash: invitationTokenHash(token),
    sentAt: now,
    expiresAt: new Date(now.getTime() + INVITATION_VALIDITY_DAYS * 86_400_000),
    url: `${deps.config.publicUrl}/workspaces/${workspaceId}/join?invitation=${encodeURIComponent(token)}`,
  };
}

/** Queues the invitation mail (the link is a secret parameter: sealed until sent, then wiped). */
export async function sendInvitationMail(
  deps: CoreDeps,
  trx: Knex.Transaction,
  invitation: { organization_id: string; workspace_id: string; email: string; locale: 'ja' | 'en' },
  link: { url: string; expiresAt: Date },
  inviterUserId: string,
) {
  const workspace = await trx('workspaces').where({ id: invitation.workspace_id }).first('name');
  const inviter = await trx('users').where({ id: inviterUserId }).first('name');
  await deps.mailer.send(trx, {
    kind: 'workspace-invitation',
    to: invitation.email,
    locale: invitation.locale,
    params: {
      inviterName: inviter?.name ?? '',
      workspaceName: workspace?.name ?? '',
      email: invitation.email,
      expiresAt: link.expiresAt.toISOString(),
      link: link.url,
    },
    // The owner organization's template (and name) is used: the mail is its invitation.
    organizationId: invitation.organization_id,
    userId: null,
  });
}
