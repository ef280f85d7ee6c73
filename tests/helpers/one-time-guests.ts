/*
 * Test helpers for one-time users (guests) at work on a flow, built on ./one-time.ts: a guest signed in through the
 * real operations (invite by e-mail, the personal link from the outbox, the address code, the terms in force), the
 * personal-link tokens mailed so far (each mail rotates them), and guest tasks for the task editor.
 */
import type { ParsedMail } from 'mailparser';
import type { TestApp } from './app.ts';
import { readOutbox, recipientOf, waitForMail } from './mail.ts';
import { acceptTerms, inviteByEmail, requestCode, signInGuestCall } from './one-time.ts';

export interface Guest {
  oneTimeUserId: string;
  invitationId: string;
  email: string;
  name: string;
  /** The guest's access token. */
  token: string;
}

/** A task for a one-time user, as the task editor sends it. */
export const guestTask = (
  order: number,
  type: 'sign' | 'approve' | 'read',
  oneTimeUserId: string,
  extra: Record<string, unknown> = {},
) => ({ order, type, assignee: { kind: 'one_time_user', oneTimeUserId }, required: true, ...extra }) as never;

const linkToken = (mail: ParsedMail) => {
  const match = /\/onetime\/auth\?token=([^\s]+)/.exec(mail.text ?? '');
  return match ? decodeURIComponent(match[1]!) : null;
};

/** The personal link's token of the newest mail to `email` that carries one, once it is delivered. */
export async function newestLinkToken(app: TestApp, email: string, seen: Set<string> = new Set()): Promise<string> {
  const mail = await waitForMail(
    app,
    (m) => recipientOf(m).includes(email) && Boolean(linkToken(m)) && !seen.has(linkToken(m)!),
  );
  return linkToken(mail)!;
}

/** Every personal-link token mailed to `email` so far. */
export async function mailedLinkTokens(app: TestApp, email: string): Promise<Set<string>> {
  const mails = (await readOutbox(app)).filter((m) => recipientOf(m).includes(email));
  return new Set(mails.map(linkToken).filter((t): t is string => Boolean(t)));
}

/** Invites `email` to the flow by e-mail as `memberToken` (201 expected); returns the invitation resource. */
export async function inviteGuest(
  app: TestApp,
  memberToken: string,
  businessFlowId: string,
  name: string,
  email: string,
) {
  const invited = await inviteByEmail(app, memberToken, businessFlowId, email, name);
  return invited as { id: string; attributes: { oneTimeUserId: string } };
}

/** Signs a guest in with the link `token`: asks for the address code, reads it from the outbox, signs in. */
export async function signInGuest(app: TestApp, email: string, linkTokenValue: string): Promise<string> {
  const code = await requestCode(app, email, { token: linkTokenValue });
  const signedIn = await signInGuestCall(app, { token: linkTokenValue }, code);
  if (signedIn.status >= 300) throw new Error(`signInOneTime failed: ${JSON.stringify(signedIn.body)}`);
  return signedIn.body.data.attributes.authorizationToken as string;
}

/** Invites a guest to the flow and signs them in through the real operations; terms accepted unless told. */
export async function signedInGuest(
  app: TestApp,
  memberToken: string,
  businessFlowId: string,
  options: { name?: string; email?: string; acceptTerms?: boolean } = {},
): Promise<Guest> {
  const name = options.name ?? 'Guest Hanako';
  const email = options.email ?? `guest-${Math.random().toString(36).slice(2)}@example.com`;
  const seen = await mailedLinkTokens(app, email);
  const invitation = await inviteGuest(app, memberToken, businessFlowId, name, email);
  const token = await signInGuest(app, email, await newestLinkToken(app, email, seen));
  if (options.acceptTerms !== false) await acceptTerms(app, token);
  return { oneTimeUserId: invitation.attributes.oneTimeUserId, invitationId: invitation.id, email, name, token };
}
