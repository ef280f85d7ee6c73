import { createHash, randomBytes } from 'node:crypto';

/** Every API key starts with this, so a bearer value is recognised as a key (and secret scanners can find leaks). */
export const API_KEY_PREFIX = 'kyk_';
/** Characters of the secret kept for display: the prefix and 8 random characters. */
const DISPLAY_LENGTH = API_KEY_PREFIX.length + 8;

/** A new key: 32 random bytes (256 bits), base64url. */
export function newApiKeySecret(): { secret: string; hash: string; prefix: string } {
  const secret = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { secret, hash: hashApiKeySecret(secret), prefix: secret.slice(0, DISPLAY_LENGTH) };
}

/**
 * The stored form of a key. The secret is high-entropy random, so a plain SHA-256 suffices (no salt or slow hash
 * is needed against guessing) and it stays valid when the master key rotates.
 */
export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Whether a bearer value is an API key rather than an access token. */
export function looksLikeApiKey(bearer: string): boolean {
  return bearer.startsWith(API_KEY_PREFIX);
}
