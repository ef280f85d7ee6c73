/*
 * Secrets at rest (private keys of e-certificates and of the service): AES-256-GCM under a key derived from the
 * master key. Envelope = version byte | 12-byte IV | 16-byte tag | ciphertext; a changed byte fails to open.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 1;

export interface Secrets {
  seal(plain: Uint8Array): Uint8Array;
  open(envelope: Uint8Array): Uint8Array;
}

export function createSecrets(masterKey: Uint8Array): Secrets {
  const key = Buffer.from(hkdfSync('sha256', masterKey, 'keiyaku', 'signing-secrets-at-rest', 32));
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
