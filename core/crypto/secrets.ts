/*
 * Secrets at rest: AES-256-GCM under a key derived from the master key (HKDF-SHA256, one key per purpose, so a
 * sealed message secret never opens as a signing key and the other way round). Envelope = version byte | 12-byte
 * IV | 16-byte tag | ciphertext; a changed byte fails to open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;

/** What a key derived from the master key protects; each purpose has its own key. */
export type SecretPurpose = 'signing-secrets-at-rest' | 'outgoing-message-secrets';

/** Seals and opens envelopes under one purpose's key. */
export interface Secrets {
  seal(plain: Uint8Array): Uint8Array;
  open(envelope: Uint8Array): Uint8Array;
}

/** The sealer of one purpose under the master key. */
export function createSecrets(masterKey: Uint8Array, purpose: SecretPurpose): Secrets {
  const key = Buffer.from(hkdfSync('sha256', masterKey, 'keiyaku', purpose, 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
    },
    open(envelope) {
      const bytes = Buffer.from(envelope);
      if (bytes.length < 29 || bytes[0] !== VERSION) throw new Error('not a secrets envelope');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13));
      decipher.setAuthTag(bytes.subarray(13, 29));
      return Buffer.concat([decipher.update(bytes.subarray(29)), decipher.final()]);
    },
  };
}
