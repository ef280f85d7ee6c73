/*
 * Mail links that prove the mail arrived. A task mail to a member or partner user links to the task and carries a
 * mail token (`?mailToken=`); when the signed-in user opens it and it was mailed to the address they still have,
 * their e-mail arrival counts as confirmed (the same record as the arrival-confirmation link of
 * email-confirmation.ts, which stays for users who never get a task mail).
 *
 * The token is stateless: base64url(user id (16 bytes) | expiry in seconds (4 bytes)) "." HMAC-SHA256 over the
 * payload and the lower-cased address it was mailed to, under a key derived from the master key (HKDF, purpose
 * `mail-link-token`). Nothing is stored: the address is inside the MAC, so a token opened after the user's address
 * changed, by another user, altered or expired confirms nothing. It is valid for MAIL_LINK_VALIDITY_DAYS and may
 * be opened more than once (it is also the link to the task).
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { emailConfirmed } from './email-confirmation.ts';

export const MAIL_LINK_VALIDITY_DAYS = 14;

const keys = new WeakMap<object, Buffer>();
function macKey(deps: CoreDeps): Buffer {
  let key = keys.get(deps.config);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', deps.config.masterKey, 'keiyaku', 'mail-link-token', 32));
    keys.set(deps.config, key);
  }
  return key;
}

const mac = (deps: CoreDeps, payload: Buffer, email: string) =>
  createHmac('sha256', macKey(deps)).update(payload).update('\0').update(email.trim().toLowerCase(), 'utf8').digest();

/** The token of a mail to `user` at `email` (the address the mail goes to), valid MAIL_LINK_VALIDITY_DAYS. */
export function mailLinkToken(deps: CoreDeps, user: { id: string; email: string }): string {
  const expires = Math.floor(deps.clock.now().getTime() / 1000) + MAIL_LINK_VALIDITY_DAYS * 86_400;
  const payload = Buffer.alloc(20);
  Buffer.from(user.id.replace(/-/g, ''), 'hex').copy(payload, 0);
  payload.writeUInt32BE(expires, 16);
  return `${payload.toString('base64url')}.${mac(deps, payload, user.email).toString('base64url')}`;
}

/** `link` with the mail token of `user` appended as `mailToken`. */
export function withMailToken(deps: CoreDeps, link: string, user: { id: string; email: string }): string {
  const url = new URL(link);
  url.searchParams.set('mailToken', mailLinkToken(deps, user));
  return url.toString();
}

/** The user id and expiry a well-formed token names, or null. */
function parse(token: string): { payload: Buffer; userId: string; expires: number; mac: Buffer } | null {
  const match = /^([A-Za-z0-9_-]{27})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const payload = Buffer.from(match[1]!, 'base64url');
  const signature = Buffer.from(match[2]!, 'base64url');
  if (payload.length !== 20 || signature.length !== 32) return null;
  const hex = payload.subarray(0, 16).toString('hex');
  const userId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { payload, userId, expires: payload.readUInt32BE(16), mac: signature };
}

/**
 * Confirms the caller's e-mail arrival with a mail token (confirmEmailByMailLink). Answers whether the caller's
 * current address is confirmed afterwards; a token of another user, for another address, altered or expired
 * changes nothing (and answers `confirmed` as the caller's address stood).
 */
export async function confirmEmailByMailLink(
  deps: CoreDeps,
  principal: Principal,
  req: RequestContext,
  token: string,
): Promise<{ confirmed: boolean; byThisLink: boolean }> {
  return deps.knex.transaction(async (trx) => {
    const user = await trx('users')
      .where({ id: principal.userId })
      .forUpdate()
      .first('id', 'organization_id', 'email', 'email_confirmed_address');
    if (!user) return { confirmed: false, byThisLink: false };
    const already = emailConfirmed(user);
    const parsed = parse(token);
    const now = deps.clock.now();
    const valid =
      parsed !== null &&
      parsed.userId === user.id &&
      parsed.expires * 1000 > now.getTime() &&
      timingSafeEqual(parsed.mac, mac(deps, parsed.payload, user.email));
    if (!valid) return { confirmed: already, byThisLink: false };
    if (already) return { confirmed: true, byThisLink: false };
    await trx('users').where({ id: user.id }).update({ email_confirmed_address: user.email, email_confirmed_at: now });
    await deps.oplog.append(trx, req, {
      action: 'user.email_confirmed',
      organizationId: user.organization_id,
      actorUserId: user.id,
      targetType: 'user',
      targetId: user.id,
      details: { email: user.email, via: 'mail-link' },
    });
    return { confirmed: true, byThisLink: true };
  });
}
