/*
 * Signing secrets and Standard Webhooks signatures. A secret is `whsec_` + base64 of 32 random bytes, sealed at rest
 * under the plugin's key with the endpoint id as context. During a rotation's overlap a delivery carries the
 * signature of the new secret and of the old one (`v1,<new> v1,<old>`), and a receiver holding either verifies it.
 */
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Ctx } from './config.ts';

/** A new signing secret. */
export const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export const sealSecret = (ctx: Ctx, endpointId: string, secret: string) =>
  Buffer.from(ctx.secrets.seal(Buffer.from(secret, 'utf8'), endpointId));

export const openSecret = (ctx: Ctx, endpointId: string, sealed: Uint8Array) =>
  Buffer.from(ctx.secrets.open(sealed, endpointId)).toString('utf8');

/** The secrets a delivery is signed with now: the current one, and the previous one while its overlap lasts. */
export function signingSecrets(
  ctx: Ctx,
  endpoint: {
    id: string;
    secret_sealed: Uint8Array;
    previous_secret_sealed: Uint8Array | null;
    previous_secret_expires_at: Date | null;
  },
): string[] {
  const secrets = [openSecret(ctx, endpoint.id, endpoint.secret_sealed)];
  const expires = endpoint.previous_secret_expires_at;
  if (endpoint.previous_secret_sealed && expires && new Date(expires) > ctx.clock.now()) {
    secrets.push(openSecret(ctx, endpoint.id, endpoint.previous_secret_sealed));
  }
  return secrets;
}

/**
 * The Standard Webhooks headers of one attempt. The timestamp is the wall clock of the sending (receivers compare
 * it with theirs and refuse one more than 5 minutes off), not the service clock.
 */
export function signedHeaders(messageId: string, payload: string, secrets: string[]): Record<string, string> {
  const now = new Date();
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(messageId, now, payload)).join(' '),
  };
}
