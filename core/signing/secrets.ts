/*
 * Secrets at rest of signing (private keys of e-certificates and of the service): AES-256-GCM under the key the
 * master key derives for them (core/crypto/secrets.ts).
 */
import { createSecrets as createPurposeSecrets, type Secrets } from '../crypto/secrets.ts';

export type { Secrets } from '../crypto/secrets.ts';

export function createSecrets(masterKey: Uint8Array): Secrets {
  return createPurposeSecrets(masterKey, 'signing-secrets-at-rest');
}
