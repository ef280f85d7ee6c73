/*
 * Test helpers for one-time (guest) users: invitations through the API, the mails they get (link, access code,
 * 6-digit code read from the local outbox), and a guest signed in with them.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { TestApp } from './app.ts';
import { outboxDir, recipientOf } from './mail.ts';

/** Every delivered mail, oldest first (by the time its file was written). */
async function outboxInOrder(app: TestApp): Promise<ParsedMail[]> {
  const folder = outboxDir(app);
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.eml'))
    .map((name) => ({ file: path.join(folder, name), at: statSync(path.join(folder, name)).mtimeMs }))
    .sort((a, b) => a.at - b.at);
  return Promise.all(files.map(({ file }) => simpleParser(readFileSync(file))));
}

export const inviteBody = (attributes: Record<string, unknown>) => ({
  data: { type: 'OneTimeInvitation', attributes },
});
export const lockBody = (lockVersion: number) => ({ data: { type: 'OneTimeInvitation', attributes: { lockVersion } } });
export const credentialBody = (type: string, attributes: Record<string, unknown>) => ({ data: { type, attributes } });

let serial = 0;
/** An address nobody else in this test process uses. */
export function guestEmail(prefix = 'guest'): string {
  serial += 1;
  return `${prefix}-${process.pid}-${serial}@example.com`;
}

/** Invites by e-mail (201 expected) and returns the OneTimeInvitation resource. */
export async function inviteByEmail(
  app: TestApp,
  token: string,
  businessFlowId: string,
  email = guestEmail(),
  name = '鈴木 一郎',
) {
  const response = await app.api.call('inviteOneTimeUser', {
    token,
    params: { businessFlowId },
    body: inviteBody({ channel: 'email', name, email }),
  });
  if (response.status !== 201) throw new Error(`inviteOneTimeUser failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

const isInvitation = (mail: ParsedMail) => /\/onetime\/auth\?token=/.test(mail.text ?? '');
const isCode = (mail: ParsedMail) => !isInvitation(mail) && /\b\d{6}\b/.test(mail.text ?? '');

/** Waits until `count` mails of the kind went to the address; returns them oldest first. */
export async function mailsTo(
  app: TestApp,
  email: string,
  kind: 'invitation' | 'code',
  count = 1,
  timeoutMs = 15_000,
): Promise<ParsedMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = (await outboxInOrder(app)).filter(
      (m) => recipientOf(m).includes(email) && (kind === 'invitation' ? isInvitation(m) : isCode(m)),
    );
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`${mails.length} ${kind} mails to ${email}, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The link token and the access code of an invitation mail. */
export function linkOf(mail: ParsedMail): { token: string; accessCode: string; url: string } {
  const text = mail.text ?? '';
  const url = /(\S+\/onetime\/auth\?token=(\S+))/.exec(text);
  const code = /[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/.exec(text);
  if (!url || !code) throw new Error(`no link or access code in: ${text}`);
  return { url: url[1]!, token: decodeURIComponent(url[2]!), accessCode: code[0] };
}

/** The 6-digit code of a code mail. */
export function codeOf(mail: ParsedMail): string {
  const match = /\b(\d{6})\b/.exec(mail.text ?? '');
  if (!match) throw new Error(`no code in: ${mail.text}`);
  return match[1]!;
}

/** Asks for a code with the credential (202 expected) and returns the code from the newest code mail. */
export async function requestCode(app: TestApp, email: string, credential: Record<string, string>) {
  const before = (await mailsTo(app, email, 'code', 0)).length;
  const response = await app.api.call('sendOneTimeAuthCode', {
    body: credentialBody('OneTimeAuthCode', credential),
  });
  if (response.status !== 202) throw new Error(`sendOneTimeAuthCode failed: ${JSON.stringify(response.body)}`);
  const mails = await mailsTo(app, email, 'code', before + 1);
  return codeOf(mails[mails.length - 1]!);
}

export function signInGuestCall(app: TestApp, credential: Record<string, string>, code: string, headers = {}) {
  return app.api.call('signInOneTime', {
    body: credentialBody('OneTimeAuth', { ...credential, code }),
    headers,
  });
}

/** Invites by e-mail, reads the link, asks for a code and signs in; returns the guest's tokens and ids. */
export async function signedInGuest(
  app: TestApp,
  memberToken: string,
  businessFlowId: string,
  options: { acceptTerms?: boolean; email?: string } = {},
) {
  const email = options.email ?? guestEmail();
  const invitation = await inviteByEmail(app, memberToken, businessFlowId, email);
  const [mail] = await mailsTo(app, email, 'invitation');
  const link = linkOf(mail!);
  const code = await requestCode(app, email, { token: link.token });
  const response = await signInGuestCall(app, { token: link.token }, code);
  if (response.status !== 201) throw new Error(`signInOneTime failed: ${JSON.stringify(response.body)}`);
  const tokens = response.body.data.attributes as { authorizationToken: string; refreshToken: string };
  if (options.acceptTerms) await acceptTerms(app, tokens.authorizationToken);
  return { email, invitation, link, ...tokens };
}

/** Accepts the terms in force for the signed-in guest (201 expected). */
export async function acceptTerms(app: TestApp, token: string): Promise<void> {
  const me = await app.api.call('getOneTimeMe', { token });
  const accepted = await app.api.call('acceptOneTimeTerms', {
    token,
    body: credentialBody('OneTimeTermsConsent', { termId: me.body.data.attributes.currentTerm.id }),
  });
  if (accepted.status !== 201) throw new Error(`acceptOneTimeTerms failed: ${JSON.stringify(accepted.body)}`);
}
