/*
 * Software keys: the private-key operation behind SigningKey, so an HSM or KMS can replace it without touching the
 * engine. Only RSA of 2048 bits or more and ECDSA P-256 are accepted.
 */
import { createPrivateKey, type KeyObject, sign as cryptoSign, X509Certificate } from 'node:crypto';
import { AppError } from '../http/errors.ts';
import type { SigningKey } from './types.ts';

export function keyAlgorithm(key: KeyObject): SigningKey['algorithm'] {
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048) return 'RSA';
  if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') return 'ECDSA-P256';
  throw new AppError('E_CERTIFICATE_KEY_UNSUPPORTED');
}

export function softwareKey(input: {
  privateKey: KeyObject | Uint8Array;
  certificate: Uint8Array;
  chain?: readonly Uint8Array[];
}): SigningKey {
  const privateKey =
    input.privateKey instanceof Uint8Array
      ? createPrivateKey({ key: Buffer.from(input.privateKey), format: 'der', type: 'pkcs8' })
      : input.privateKey;
  const algorithm = keyAlgorithm(privateKey);
  if (!new X509Certificate(input.certificate).checkPrivateKey(privateKey)) {
    throw new AppError('E_CERTIFICATE_INVALID');
  }
  return {
    algorithm,
    certificate: input.certificate,
    chain: input.chain ?? [],
    // The callback form runs the private-key operation on libuv's thread pool: the key stays in this process and
    // its handle on this thread, and the event loop is not blocked for the millisecond an RSA-2048 signature takes.
    sign: (data) =>
      new Promise<Uint8Array>((resolve, reject) => {
        cryptoSign('sha256', data, { key: privateKey, dsaEncoding: 'der' }, (error, signature) => {
          if (error) reject(error);
          else resolve(new Uint8Array(signature));
        });
      }),
  };
}
