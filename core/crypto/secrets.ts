/*
 * Secrets at rest: AES-256-GCM under a key derived from the master key (HKDF-SHA256, one key per purpose, so a
 * sealed message secret never opens as a signing key and the other way round). Envelope = version byte | 12-byte
 * IV | 16-byte tag | ciphertext; a changed byte fails to open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;

/**
 * What a derived key protects; each purpose has its own key. The root is the master key, except for a refresh
 * token's successor, sealed under the rotated token itself (core/auth/tokens.ts).
 */
export type SecretPurpose =
  | 'signing-secrets-at-rest'
  | 'outgoing-message-secrets'
  | 'refresh-token-successor'
  /** A plugin's own secrets (core/plugins: ctx.secrets), one key per plugin. */
  | `plugin:${string}`;

/** Seals and opens envelopes under one purpose's key; `context` (authenticated, not stored) binds one to its row. */
export interface Secrets {
  seal(plain: Uint8Array, context?: string): Uint8Array;
  open(envelope: Uint8Array, context?: string): Uint8Array;
}

/** The sealer of one purpose under a root key (the master key, or a token for its successor). */
export function createSecrets(rootKey: Uint8Array | string, purpose: SecretPurpose): Secrets {
  const key = Buffer.from(hkdfSync('sha256', rootKey, 'keiyaku', purpose, 32));
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      if (context !== undefined) cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(envelope, context) {
      const bytes = Buffer.from(envelope);
      if (bytes.length < 29 || bytes[0] !== VERSION) throw new Error('not a secrets envelope');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13));
      if (context !== undefined) decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(bytes.subarray(13, 29));
      return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
    },
  };
}
