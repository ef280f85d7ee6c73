/*
 * E-mail arrival confirmation: a user signs only after opening a link mailed to their current address. The link's
 * token is stored as a SHA-256 hash, valid 24 hours, single use; a new request replaces earlier links, and a
 * changed address (users.email differing from email_confirmed_address) needs confirming again.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';

export const CONFIRMATION_VALIDITY_HOURS = 24;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The user's current address is the one they confirmed. */
export function emailConfirmed(user: { email: string; email_confirmed_address: string | null }): boolean {
  return !!user.email_confirmed_address && user.email_confirmed_address.toLowerCase() === user.email.toLowerCase();
}

export async function requestEmailConfirmation(
  deps: CoreDeps,
  principal: Principal,
  req: RequestContext,
): Promise<void> {
  await deps.knex.transaction(async (trx) => {
    const user = await trx('users').where({ id: principal.userId }).first('id', 'name', 'email', 'locale');
    if (!user) throw new AppError('NOT_FOUND');
    const token = randomBytes(32).toString('base64url');
    const now = deps.clock.now();
    const expiresAt = new Date(now.getTime() + CONFIRMATION_VALIDITY_HOURS * 3600_000);
    await trx('email_confirmations').where({ user_id: user.id }).whereNull('used_at').delete();
    await trx('email_confirmations').insert({
      user_id: user.id,
      email: user.email,
      token_hash: tokenHash(token),
      expires_at: expiresAt,
      created_at: now,
    });
    await deps.mailer.send(trx, {
      kind: 'email-confirmation',
      to: user.email,
      locale: user.locale,
      params: {
        userName: user.name,
        email: user.email,
        expiresAt: expiresAt.toISOString(),
        link: `${deps.config.publicUrl}/arrival-confirmation?token=${token}`,
      },
      organizationId: principal.organizationId,
      userId: user.id,
    });
    await deps.oplog.append(trx, req, {
      action: 'user.email_confirmation_sent',
      organizationId: principal.organizationId,
      actorUserId: user.id,
      targetType: 'user',
      targetId: user.id,
    });
  });
}

export async function confirmEmail(
  deps: CoreDeps,
  trx: Knex.Transaction,
  req: RequestContext,
  token: string,
): Promise<void> {
  const invalid = () => new AppError('EMAIL_CONFIRMATION_LINK_INVALID', { pointer: '/data/attributes/token' });
  const row = await trx('email_confirmations')
    .where({ token_hash: tokenHash(token) })
    .forUpdate()
    .first();
  const now = deps.clock.now();
  if (!row || row.used_at || new Date(row.expires_at).getTime() <= now.getTime()) throw invalid();
  const user = await trx('users').where({ id: row.user_id }).first('id', 'organization_id', 'email');
  if (!user || user.email.toLowerCase() !== String(row.email).toLowerCase()) throw invalid();
  await trx('email_confirmations').where({ id: row.id }).update({ used_at: now });
  await trx('users').where({ id: user.id }).update({ email_confirmed_address: user.email, email_confirmed_at: now });
  await deps.oplog.append(trx, req, {
    action: 'user.email_confirmed',
    organizationId: user.organization_id,
    actorUserId: user.id,
    targetType: 'user',
    targetId: user.id,
    details: { email: user.email },
  });
}
