/*
 * The personal link and the 16-character access code of a one-time invitation. Both are random, stored only as
 * SHA-256, live 14 days from the mail that carried them, and are replaced together: a new mail to the guest (the
 * invitation, a re-send, a task mail) makes every earlier link and code dead.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { hashOpaqueToken, newOpaqueToken } from '../../auth/tokens.ts';
import type { CoreDeps } from '../../deps.ts';

/** A link (and its access code) lives this long from the mail that carried it. */
export const LINK_VALIDITY_DAYS = 14;
/** The access code's letters: no 0/O/1/I/L, so it reads aloud and types back without doubt. */
export const ACCESS_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const ACCESS_CODE_LENGTH = 16;

/** A new access code, shown as XXXX-XXXX-XXXX-XXXX. */
export function newAccessCode(): string {
  let code = '';
  for (let i = 0; i < ACCESS_CODE_LENGTH; i++) code += ACCESS_CODE_ALPHABET[randomInt(ACCESS_CODE_ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** The access code as typed (any case, spaces, hyphens) reduced to its 16 letters, or null when it cannot be one. */
export function normalizeAccessCode(typed: string): string | null {
  const code = typed.replace(/[\s\-‐-―ー－]/g, '').toUpperCase();
  if (code.length !== ACCESS_CODE_LENGTH) return null;
  for (const c of code) if (!ACCESS_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/** SHA-256 of an access code as typed; null when the text cannot be an access code. */
export function hashAccessCode(typed: string): string | null {
  const code = normalizeAccessCode(typed);
  return code === null ? null : createHash('sha256').update(`one-time-access-code:${code}`).digest('hex');
}

/** SHA-256 of a link token (the same hash as every opaque token of the service). */
export const hashLinkToken = (token: string): string => hashOpaqueToken(token);

/** The page a link opens. */
export const invitationUrl = (deps: Pick<CoreDeps, 'config'>, token: string): string =>
  `${deps.config.publicUrl}/onetime/auth?token=${encodeURIComponent(token)}`;

export interface RotatedLink {
  /** The personal link to put in the mail (a secret mail parameter). */
  url: string;
  /** The token inside `url`. */
  token: string;
  /** The 16-character access code, formatted XXXX-XXXX-XXXX-XXXX (a secret mail parameter). */
  accessCode: string;
  expiresAt: Date;
}

/**
 * Issues a new link and access code for the invitation inside the caller's transaction and kills every earlier
 * link, access code and unused 6-digit address code of it. Counts as a send (sent_count, last_sent_at) and bumps
 * lock_version. Does not end the guest's sessions (a re-send does that itself) and does not look at the invitation's
 * status: the caller sends nothing to a cancelled invitation.
 */
export async function rotateInvitationLink(
  deps: Pick<CoreDeps, 'config' | 'clock'>,
  trx: Knex.Transaction,
  invitationId: string,
): Promise<RotatedLink> {
  const now = deps.clock.now();
  const token = newOpaqueToken();
  const accessCode = newAccessCode();
  const expiresAt = new Date(now.getTime() + LINK_VALIDITY_DAYS * 24 * 3600_000);
  const updated = await trx('one_time_invitations')
    .where({ id: invitationId })
    .update({
      link_token_hash: hashLinkToken(token),
      access_code_hash: hashAccessCode(accessCode),
      link_expires_at: expiresAt,
      sent_count: trx.raw('sent_count + 1'),
      last_sent_at: now,
      lock_version: trx.raw('lock_version + 1'),
      updated_at: now,
    });
  if (updated === 0) throw new Error(`one-time invitation ${invitationId} not found`);
  // Kept (marked used) rather than deleted: they still count against the code mails an hour of the invitation.
  await trx('one_time_auth_codes').where({ invitation_id: invitationId }).whereNull('used_at').update({ used_at: now });
  return { url: invitationUrl(deps, token), token, accessCode, expiresAt };
}
