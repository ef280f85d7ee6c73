/*
 * What the check of a TSA's answer needs from an RFC 3161 token (tsa.ts), read the quick way: every signature's
 * timestamp is checked on the signing thread, and parsing the whole token with pkijs (the ContentInfo, the SignedData
 * and the TSA certificate in it, each compared with its schema) costs milliseconds of that thread's time. Here the
 * ContentInfo and SignedData are walked as DER (der.ts), the certificates (the same TSA certificate on every token)
 * come from a small cache of parsed certificates, and only the small parts, the SignerInfo, the digest algorithms and
 * the TSTInfo, go through pkijs. A token that is not of the plain DER shape a TSA sends (BER, CRLs or attribute
 * certificates in it, a constructed eContent, anything unreadable) gives null, and the caller reads it the general way
 * (parseTimestampToken), which then decides and reports: a token read here is one that reads the same there.
 */
import { createHash } from 'node:crypto';
import * as pkijs from 'pkijs';
import { arrayBuffer, certificateDer, checkSignerInfo, OID } from './cms.ts';
import { bytesOf, children, type DerElement, oid, readElement } from './der.ts';

/** A token's TSTInfo, whether its signature holds, and its certificates as DER. */
export interface TokenFacts {
  tstInfo: pkijs.TSTInfo;
  /** The token's signature and message digest verify and the signer certificate is a timeStamping certificate. */
  signatureValid: boolean;
  /** The signer's certificate, or null when the token does not carry the certificate its SignerInfo names. */
  certificate: Uint8Array | null;
  /** Every certificate the token carries, the signer's included, in the token's order. */
  certificates: Uint8Array[];
}

/** The signer certificate carries the timeStamping extended key usage (RFC 3161 §2.3). */
export function isTimeStampingCertificate(certificate: pkijs.Certificate): boolean {
  const eku = certificate.extensions?.find((e) => e.extnID === '2.5.29.37');
  return !!eku && (eku.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes.includes(OID.timeStamping) === true;
}

interface CachedCertificate {
  parsed: pkijs.Certificate;
  /** certificateDer(parsed): the DER the general reader hands back for it. */
  encoded: Uint8Array;
}

/** Certificates read from tokens, by the SHA-256 of their DER; a TSA signs with one certificate for years. */
const knownCertificates = new Map<string, CachedCertificate>();
const CERTIFICATES_KEPT = 64;

function cachedCertificate(der: Uint8Array): CachedCertificate {
  const key = createHash('sha256').update(der).digest('hex');
  let cached = knownCertificates.get(key);
  if (!cached) {
    const parsed = pkijs.Certificate.fromBER(arrayBuffer(der));
    cached = { parsed, encoded: certificateDer(parsed) };
    if (knownCertificates.size >= CERTIFICATES_KEPT) knownCertificates.delete(knownCertificates.keys().next().value!);
    knownCertificates.set(key, cached);
  }
  return cached;
}

const oidIs = (bytes: Uint8Array, element: DerElement | undefined, dotted: string) =>
  element?.tag === 0x06 && Buffer.from(bytesOf(bytes, element)).equals(oid(dotted));

/** The SignedData's fields (RFC 5652 §5.1) when the token is a plain DER ContentInfo of one; otherwise null. */
function signedDataFields(token: Uint8Array) {
  const contentInfo = readElement(token, 0);
  if (contentInfo.tag !== 0x30 || contentInfo.end !== token.length) return null;
  const [type, explicit, ...rest] = children(token, contentInfo);
  if (!oidIs(token, type, OID.signedData) || explicit?.tag !== 0xa0 || rest.length > 0) return null;
  const signedData = readElement(token, explicit.contentStart);
  if (signedData.tag !== 0x30 || signedData.end !== explicit.end) return null;
  const fields = children(token, signedData);
  const [version, digestAlgorithms, encapsulated] = fields;
  const certificateSet = fields[3]?.tag === 0xa0 ? fields[3] : undefined;
  const signerInfos = fields[certificateSet ? 4 : 3];
  if (
    version?.tag !== 0x02 ||
    digestAlgorithms?.tag !== 0x31 ||
    encapsulated?.tag !== 0x30 ||
    signerInfos?.tag !== 0x31 ||
    fields.length !== (certificateSet ? 5 : 4)
  ) {
    return null;
  }
  // EncapsulatedContentInfo ::= SEQUENCE { eContentType, eContent [0] EXPLICIT OCTET STRING }
  const [contentType, wrapped, ...more] = children(token, encapsulated);
  if (!oidIs(token, contentType, OID.tstInfo) || wrapped?.tag !== 0xa0 || more.length > 0) return null;
  const octets = readElement(token, wrapped.contentStart);
  if (octets.tag !== 0x04 || octets.end !== wrapped.end) return null;
  return { digestAlgorithms, content: token.slice(octets.contentStart, octets.end), certificateSet, signerInfos };
}

/** The facts of a plain DER token (see the file comment), or null to read it the general way. */
export function readPlainToken(token: Uint8Array): TokenFacts | null {
  try {
    const fields = signedDataFields(token);
    if (!fields) return null;
    const part = (element: DerElement) => arrayBuffer(bytesOf(token, element));
    for (const algorithm of children(token, fields.digestAlgorithms))
      pkijs.AlgorithmIdentifier.fromBER(part(algorithm));
    const carried: CachedCertificate[] = [];
    for (const element of fields.certificateSet ? children(token, fields.certificateSet) : []) {
      if (element.tag !== 0x30) return null; // an attribute or other certificate format
      carried.push(cachedCertificate(bytesOf(token, element)));
    }
    const signerInfos = children(token, fields.signerInfos).map((element) => pkijs.SignerInfo.fromBER(part(element)));
    if (signerInfos.length === 0) return null;
    const tstInfo = pkijs.TSTInfo.fromBER(fields.content);
    const parsed = carried.map((c) => c.parsed);
    const check = checkSignerInfo(parsed, signerInfos[0]!, fields.content);
    const signer = check.certificate ? carried[parsed.indexOf(check.certificate)]! : null;
    return {
      tstInfo,
      signatureValid:
        check.digestMatches && check.signatureValid && !!signer && isTimeStampingCertificate(signer.parsed),
      certificate: signer?.encoded ?? null,
      certificates: carried.map((c) => c.encoded),
    };
  } catch {
    return null;
  }
}
