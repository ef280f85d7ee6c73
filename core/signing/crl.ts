/*
 * X.509 CRLs (RFC 5280 §5) read and checked against the certificate they are asked about: signed by the certificate's
 * issuer (its key, cRLSign when the issuer states key usages), issued under the issuer's name (and key identifier
 * when the CRL carries an Authority Key Identifier), fresh, and complete for that certificate. Delta CRLs, indirect
 * CRLs and CRLs partitioned by reason are refused as unusable: they do not by themselves say whether a certificate
 * is revoked, and no CA we talk to needs them; a caller then reports the status as unknown, never as good.
 */
import { createHash, verify as cryptoVerify, type KeyObject, X509Certificate } from 'node:crypto';
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { arrayBuffer } from './cms.ts';
import type { RevocationReason } from './types.ts';

/** How far ahead of our clock a thisUpdate may be (the issuer's clock may run a little fast). */
export const CLOCK_SKEW_MS = 5 * 60_000;

const REASONS: Record<number, RevocationReason> = {
  0: 'unspecified',
  1: 'keyCompromise',
  2: 'cACompromise',
  3: 'affiliationChanged',
  4: 'superseded',
  5: 'cessationOfOperation',
  6: 'certificateHold',
  8: 'removeFromCRL',
  9: 'privilegeWithdrawn',
  10: 'aACompromise',
};

/** The RFC 5280 name of a CRLReason value; an unknown value reads as unspecified. */
export function reasonName(value: number): RevocationReason {
  return REASONS[value] ?? 'unspecified';
}

const EXT = {
  authorityKeyIdentifier: '2.5.29.35',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  crlNumber: '2.5.29.20',
  reasonCode: '2.5.29.21',
  invalidityDate: '2.5.29.24',
  deltaCrlIndicator: '2.5.29.27',
  issuingDistributionPoint: '2.5.29.28',
  certificateIssuer: '2.5.29.29',
  freshestCrl: '2.5.29.46',
  authorityInfoAccess: '1.3.6.1.5.5.7.1.1',
  expiredCertsOnCrl: '2.5.29.60',
} as const;

const HASH_OF_SIGNATURE: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};
const HASH_OF_DIGEST: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** The node hash name of a digest algorithm OID (sha1, sha256, ...), or null when we do not know it. */
export function hashOfDigestOid(oid: string): string | null {
  return HASH_OF_DIGEST[oid] ?? null;
}

/** Whether `signature` over `tbs` verifies with `publicKey` under `algorithm` (RSA PKCS#1 v1.5, RSA-PSS, ECDSA, Ed25519). */
export function signatureVerifies(
  algorithm: pkijs.AlgorithmIdentifier,
  tbs: Uint8Array,
  signature: Uint8Array,
  publicKey: KeyObject,
): boolean {
  try {
    const oid = algorithm.algorithmId;
    if (oid === '1.3.101.112') return cryptoVerify(null, tbs, publicKey, signature);
    if (oid === '1.2.840.113549.1.1.10') {
      const params = new pkijs.RSASSAPSSParams({ schema: algorithm.algorithmParams });
      const hash = hashOfDigestOid(params.hashAlgorithm.algorithmId);
      if (!hash) return false;
      return cryptoVerify(
        hash,
        tbs,
        { key: publicKey, padding: 6 /* RSA_PKCS1_PSS_PADDING */, saltLength: params.saltLength },
        signature,
      );
    }
    const hash = HASH_OF_SIGNATURE[oid];
    if (!hash) return false;
    return cryptoVerify(hash, tbs, { key: publicKey, dsaEncoding: 'der' }, signature);
  } catch {
    return false;
  }
}

/** The public key of a certificate (DER) for node:crypto. */
export function publicKeyOf(certificateDer: Uint8Array): KeyObject {
  return new X509Certificate(certificateDer).publicKey;
}

/** The subject's key identifier as RFC 5280 §4.2.1.2 (1) derives it when the certificate states none. */
export function keyIdentifierOf(certificate: pkijs.Certificate): Uint8Array {
  const ski = certificate.extensions?.find((e) => e.extnID === EXT.subjectKeyIdentifier);
  if (ski) return new Uint8Array((ski.parsedValue as asn1js.OctetString).valueBlock.valueHexView);
  const key = certificate.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView;
  return new Uint8Array(createHash('sha1').update(key).digest());
}

/** The issuer states key usages and cRLSign (bit 6) is not among them. */
function lacksCrlSign(issuer: pkijs.Certificate): boolean {
  const extension = issuer.extensions?.find((e) => e.extnID === EXT.keyUsage);
  if (!extension) return false;
  const bits = new Uint8Array((extension.parsedValue as asn1js.BitString).valueBlock.valueHexView);
  return ((bits[0] ?? 0) & 0x02) === 0;
}

const equalBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** The certificate is a CA (basicConstraints cA TRUE). */
function isCa(certificate: pkijs.Certificate): boolean {
  const extension = certificate.extensions?.find((e) => e.extnID === '2.5.29.19');
  return !!(extension?.parsedValue as pkijs.BasicConstraints | undefined)?.cA;
}

/** Why a CRL carrying an issuingDistributionPoint cannot decide `certificate`'s status, or null when it can. */
function scopeProblem(extension: pkijs.Extension, certificate: pkijs.Certificate): string | null {
  const point = extension.parsedValue as pkijs.IssuingDistributionPoint;
  if (point.indirectCRL) return 'an indirect CRL (not supported)';
  if (point.onlySomeReasons !== undefined) return 'a CRL partitioned by reason (not supported)';
  if (point.onlyContainsAttributeCerts) return 'a CRL of attribute certificates only';
  if (point.onlyContainsCACerts && !isCa(certificate)) return 'a CRL of CA certificates only';
  if (point.onlyContainsUserCerts && isCa(certificate)) return 'a CRL of end-entity certificates only';
  return null;
}

/** An entry found for the certificate: when and why it was revoked. */
export interface CrlEntry {
  revokedAt: Date;
  reason: RevocationReason;
}

export type CrlCheck =
  | { usable: true; thisUpdate: Date; nextUpdate: Date | null; entry: CrlEntry | null; crlNumber: bigint | null }
  | { usable: false; problem: string };

/**
 * How fresh a CRL (or OCSP response) must be: 'current' for a status decided now (nextUpdate not past, and a CRL
 * without nextUpdate at most a day old); 'evidence' for data embedded when a document was signed (only a thisUpdate
 * that is not in the future: the verifier compares the signing time with it).
 */
export type Freshness = 'current' | 'evidence';

const DAY = 24 * 60 * 60 * 1000;

/** Parses a DER CRL; throws when it is not one. */
export function parseCrl(der: Uint8Array): pkijs.CertificateRevocationList {
  return pkijs.CertificateRevocationList.fromBER(arrayBuffer(der));
}

/** The CRL's issuer matches the issuer certificate by name, and by key identifier when the CRL has an AKI. */
export function crlIsOfIssuer(crl: pkijs.CertificateRevocationList, issuer: pkijs.Certificate): boolean {
  if (!crl.issuer.isEqual(issuer.subject)) return false;
  const aki = crl.crlExtensions?.extensions.find((e) => e.extnID === EXT.authorityKeyIdentifier);
  const keyId = (aki?.parsedValue as pkijs.AuthorityKeyIdentifier | undefined)?.keyIdentifier;
  return !keyId || equalBytes(new Uint8Array(keyId.valueBlock.valueHexView), keyIdentifierOf(issuer));
}

/** What a CRL says of a certificate whatever the time: a problem, or its dates, number and the certificate's entry. */
type TimelessCheck =
  | { usable: true; thisUpdate: Date; nextUpdate: Date | null; entry: CrlEntry | null; crlNumber: bigint | null }
  | { usable: false; problem: string };

/**
 * Timeless verdicts by the SHA-256 of the CRL, the certificate and the issuer: reading a CRL with pkijs and checking
 * its signature costs milliseconds, and a signature with the service's key checks the same local CA CRL (re-issued
 * hourly) every time. The time checks are made on every call.
 */
const timelessChecks = new Map<string, TimelessCheck>();
const TIMELESS_CHECKS_KEPT = 256;

/**
 * Checks `crlDer` for `certificateDer` issued by `issuerDer`: parsed, the issuer's, a complete CRL, signed by the
 * issuer, fresh for `freshness` at `now`; then finds the certificate's entry (by serial number).
 */
export function checkCrl(
  crlDer: Uint8Array,
  certificateDer: Uint8Array,
  issuerDer: Uint8Array,
  now: Date,
  freshness: Freshness,
): CrlCheck {
  const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
  const key = `${hash(crlDer)} ${hash(certificateDer)} ${hash(issuerDer)}`;
  let timeless = timelessChecks.get(key);
  if (!timeless) {
    timeless = checkTimeless(crlDer, certificateDer, issuerDer);
    if (timelessChecks.size >= TIMELESS_CHECKS_KEPT) timelessChecks.delete(timelessChecks.keys().next().value!);
    timelessChecks.set(key, timeless);
  }
  if (!timeless.usable) return { ...timeless };
  const { thisUpdate, nextUpdate, entry, crlNumber } = timeless;
  const t = now.getTime();
  if (thisUpdate.getTime() > t + CLOCK_SKEW_MS) return { usable: false, problem: 'thisUpdate is in the future' };
  if (freshness === 'current') {
    if (nextUpdate && nextUpdate.getTime() < t)
      return { usable: false, problem: `stale (nextUpdate ${iso(nextUpdate)})` };
    if (!nextUpdate && thisUpdate.getTime() < t - DAY) return { usable: false, problem: 'stale (no nextUpdate)' };
  }
  // Copies: a caller's status must not share mutable dates with the cache.
  return {
    usable: true,
    thisUpdate: new Date(thisUpdate),
    nextUpdate: nextUpdate && new Date(nextUpdate),
    entry: entry && { revokedAt: new Date(entry.revokedAt), reason: entry.reason },
    crlNumber,
  };
}

/** checkCrl's checks that do not depend on the time: parsed, the issuer's, complete, signed; the entry. */
function checkTimeless(crlDer: Uint8Array, certificateDer: Uint8Array, issuerDer: Uint8Array): TimelessCheck {
  let crl: pkijs.CertificateRevocationList;
  let certificate: pkijs.Certificate;
  let issuer: pkijs.Certificate;
  try {
    crl = parseCrl(crlDer);
    certificate = pkijs.Certificate.fromBER(arrayBuffer(certificateDer));
    issuer = pkijs.Certificate.fromBER(arrayBuffer(issuerDer));
  } catch {
    return { usable: false, problem: 'unreadable' };
  }
  if (!crl.issuer.isEqual(certificate.issuer) || !crlIsOfIssuer(crl, issuer)) {
    return { usable: false, problem: 'issued by another CA' };
  }
  for (const extension of crl.crlExtensions?.extensions ?? []) {
    if (extension.extnID === EXT.deltaCrlIndicator) return { usable: false, problem: 'a delta CRL (not supported)' };
    if (extension.extnID === EXT.issuingDistributionPoint) {
      const problem = scopeProblem(extension, certificate);
      if (problem) return { usable: false, problem };
      continue;
    }
    const known = Object.values(EXT) as string[];
    // RFC 5280 §5.2: a CRL with a critical extension we cannot process must not be used.
    if (extension.critical && !known.includes(extension.extnID)) {
      return { usable: false, problem: `an unknown critical extension ${extension.extnID}` };
    }
  }
  if (lacksCrlSign(issuer)) return { usable: false, problem: 'the issuer key may not sign CRLs' };
  const signed = signatureVerifies(
    crl.signatureAlgorithm,
    new Uint8Array(crl.tbsView),
    new Uint8Array(crl.signatureValue.valueBlock.valueHexView),
    publicKeyOf(issuerDer),
  );
  if (!signed) return { usable: false, problem: 'signature does not verify' };
  const thisUpdate = crl.thisUpdate.value;
  const nextUpdate = crl.nextUpdate?.value ?? null;
  const numberExtension = crl.crlExtensions?.extensions.find((e) => e.extnID === EXT.crlNumber);
  const crlNumber = numberExtension
    ? ((numberExtension.parsedValue as asn1js.Integer | undefined)?.toBigInt() ?? null)
    : null;
  return { usable: true, thisUpdate, nextUpdate, entry: entryOf(crl, certificate), crlNumber };
}

const iso = (date: Date) => date.toISOString();

function entryOf(crl: pkijs.CertificateRevocationList, certificate: pkijs.Certificate): CrlEntry | null {
  for (const revoked of crl.revokedCertificates ?? []) {
    if (!revoked.userCertificate.isEqual(certificate.serialNumber)) continue;
    const reasonExtension = revoked.crlEntryExtensions?.extensions.find((e) => e.extnID === EXT.reasonCode);
    const value = (reasonExtension?.parsedValue as asn1js.Enumerated | undefined)?.valueBlock.valueDec;
    const reason = reasonName(value ?? 0);
    // removeFromCRL belongs in delta CRLs only: in a complete CRL it says the certificate is not (any more) revoked.
    if (reason === 'removeFromCRL') return null;
    return { revokedAt: revoked.revocationDate.value, reason };
  }
  return null;
}
