/*
 * PKCS#12 (.p12/.pfx) reading for e-certificates and the configured business-operator key: the password opens it,
 * the private key becomes PKCS#8 DER (RSA or EC), and the certificates are split into the one matching the key and
 * its chain. Legacy (3DES/RC2) and PBES2 (AES) encryptions are both read.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { AppError } from '../http/errors.ts';
import type forgeTypes from 'node-forge';
import { keyAlgorithm } from './keys.ts';

export interface Pkcs12Content {
  privateKeyPkcs8: Uint8Array;
  certificate: Uint8Array;
  chain: Uint8Array[];
  algorithm: 'RSA' | 'ECDSA-P256';
}

/** Opens a PKCS#12: E_CERTIFICATE_FILE_INVALID when it is not one, E_CERTIFICATE_PIN_WRONG for a wrong password. */
export async function readPkcs12(bytes: Uint8Array, password: string): Promise<Pkcs12Content> {
  const { default: forge } = await import('node-forge'); // loaded when a PKCS#12 is read
  const derBytes = (node: forgeTypes.asn1.Asn1) =>
    new Uint8Array(Buffer.from(forge.asn1.toDer(node).getBytes(), 'binary'));
  let asn1: forgeTypes.asn1.Asn1;
  try {
    asn1 = forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString('binary')));
  } catch (error) {
    throw new AppError('E_CERTIFICATE_FILE_INVALID', { cause: error });
  }
  let p12: forgeTypes.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(asn1, true, password);
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (/password|MAC|decrypt/i.test(message)) throw new AppError('E_CERTIFICATE_PIN_WRONG', { cause: error });
    throw new AppError('E_CERTIFICATE_FILE_INVALID', { cause: error });
  }
  const shrouded = forge.pki.oids.pkcs8ShroudedKeyBag!;
  const plain = forge.pki.oids.keyBag!;
  const certBag = forge.pki.oids.certBag!;
  const keyBags = [
    ...(p12.getBags({ bagType: shrouded })[shrouded] ?? []),
    ...(p12.getBags({ bagType: plain })[plain] ?? []),
  ];
  const certBags = p12.getBags({ bagType: certBag })[certBag] ?? [];
  const keyBag = keyBags[0];
  if (!keyBag) throw new AppError('E_CERTIFICATE_FILE_INVALID', { detail: 'no private key' });
  const privateKeyPkcs8 = keyBag.key
    ? derBytes(forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(keyBag.key)))
    : derBytes(keyBag.asn1 as forgeTypes.asn1.Asn1);
  const privateKey = createPrivateKey({ key: Buffer.from(privateKeyPkcs8), format: 'der', type: 'pkcs8' });
  const algorithm = keyAlgorithm(privateKey);
  const certificates = certBags.map((bag): Uint8Array =>
    bag.cert ? derBytes(forge.pki.certificateToAsn1(bag.cert)) : derBytes(bag.asn1 as forgeTypes.asn1.Asn1),
  );
  const certificate = certificates.find((der: Uint8Array) => new X509Certificate(der).checkPrivateKey(privateKey));
  if (!certificate) throw new AppError('E_CERTIFICATE_INVALID', { detail: 'no certificate matches the private key' });
  return {
    privateKeyPkcs8,
    certificate,
    chain: certificates.filter((der: Uint8Array) => der !== certificate),
    algorithm,
  };
}
