/*
 * CMS SignedData (RFC 5652) as CAdES baseline needs it: SHA-256, signed attributes content-type, message-digest and
 * signing-certificate-v2 (RFC 5035) and never signingTime (PAdES puts the claimed time in the signature
 * dictionary's /M). The signature value comes from a SigningKey, so the private key can live anywhere. The same
 * builder signs RFC 3161 tokens (encapsulated TSTInfo) for the built-in TSA.
 */
import { createHash, verify as cryptoVerify, type KeyObject, X509Certificate } from 'node:crypto';
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import * as der from './der.ts';
import type { SigningKey } from './types.ts';

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  signatureTimeStampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha384: '2.16.840.1.101.3.4.2.2',
  sha512: '2.16.840.1.101.3.4.2.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

const HASH_OF_OID: Record<string, string> = { [OID.sha256]: 'sha256', [OID.sha384]: 'sha384', [OID.sha512]: 'sha512' };

/** The bytes as an ArrayBuffer of their own (what pkijs, @peculiar/x509 and fetch take as BufferSource). */
export function arrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? bytes.buffer
    : new Uint8Array(bytes).buffer; // a copy: Buffer.slice would share (and expose) Node's whole buffer pool
}

export const sha256 = (data: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(data).digest());

export function parseCertificate(der: Uint8Array): pkijs.Certificate {
  return pkijs.Certificate.fromBER(arrayBuffer(der));
}

/** Attribute ::= SEQUENCE { attrType OBJECT IDENTIFIER, attrValues SET OF AttributeValue } (DER). */
function attribute(type: string, value: Uint8Array): Uint8Array {
  return der.sequence(der.oid(type), der.set(value));
}

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } with the default hash (SHA-256) omitted. */
function signingCertificateV2(certificateDer: Uint8Array): Uint8Array {
  const { issuer, serial } = der.certificateIds(certificateDer);
  // IssuerSerial ::= SEQUENCE { issuer GeneralNames (directoryName [4]), serialNumber }
  const issuerSerial = der.sequence(der.sequence(der.contextConstructed(4, issuer)), serial);
  const essCertIdV2 = der.sequence(der.octetString(sha256(certificateDer)), issuerSerial);
  return der.sequence(der.sequence(essCertIdV2));
}

const SHA256_ALGORITHM = der.sequence(der.oid(OID.sha256));

function signatureAlgorithm(key: SigningKey): Uint8Array {
  return key.algorithm === 'RSA'
    ? der.sequence(der.oid(OID.sha256WithRsa), der.NULL)
    : der.sequence(der.oid(OID.ecdsaWithSha256));
}

export interface SignedDataInput {
  key: SigningKey;
  /** id-data for a detached PDF signature, id-ct-TSTInfo for a timestamp token. */
  contentType: string;
  /** SHA-256 of the content. */
  digest: Uint8Array;
  /** Encapsulated content (a TSTInfo); omitted for detached signatures. */
  content?: Uint8Array;
  /** Extra certificates to embed beside the signer's chain. */
  extraCertificates?: readonly Uint8Array[];
  /** Embed the signer's certificate and chain (default true; a TSA leaves them out when not asked for them). */
  includeCertificates?: boolean;
}

/**
 * Builds and signs a SignedData; returns the ContentInfo's DER and the SignerInfo's signature value. Written as DER
 * directly (der.ts): the certificates go in as the bytes they are.
 */
export async function buildSignedData(
  input: SignedDataInput,
): Promise<{ der: Uint8Array; signatureValue: Uint8Array }> {
  const { key } = input;
  const signer = der.certificateIds(key.certificate);
  // DER: a SET OF is sorted by its elements' encodings (X.690 §11.6); verifiers such as OpenSSL re-encode it so.
  const attributes = [
    attribute(OID.contentType, der.oid(input.contentType)),
    attribute(OID.messageDigest, der.octetString(input.digest)),
    attribute(OID.signingCertificateV2, signingCertificateV2(key.certificate)),
  ].sort((x, y) => Buffer.compare(x, y));
  const signedAttrsDer = der.set(...attributes);
  const signatureValue = await key.sign(signedAttrsDer);
  const signerInfo = der.sequence(
    der.smallInteger(1),
    der.sequence(signer.issuer, signer.serial),
    SHA256_ALGORITHM,
    der.contextConstructed(0, ...attributes), // signedAttrs [0] IMPLICIT SET OF Attribute
    signatureAlgorithm(key),
    der.octetString(signatureValue),
  );
  const certificates =
    input.includeCertificates === false ? [] : [key.certificate, ...key.chain, ...(input.extraCertificates ?? [])];
  const signedData = der.sequence(
    der.smallInteger(input.content ? 3 : 1),
    der.set(SHA256_ALGORITHM),
    der.sequence(
      der.oid(input.contentType),
      ...(input.content ? [der.contextConstructed(0, der.octetString(input.content))] : []),
    ),
    ...(certificates.length > 0 ? [der.contextConstructed(0, ...certificates)] : []),
    der.set(signerInfo),
  );
  const contentInfo = der.sequence(der.oid(OID.signedData), der.contextConstructed(0, signedData));
  return { der: contentInfo, signatureValue };
}

/**
 * Adds id-aa-signatureTimeStampToken to the first SignerInfo of a SignedData as its only unsigned attribute; the
 * signed part is unchanged (its bytes are copied, not re-encoded).
 */
export function addSignatureTimestamp(cmsDer: Uint8Array, tokenDer: Uint8Array): Uint8Array {
  const contentInfo = der.readElement(cmsDer, 0);
  const [type, explicit] = der.children(cmsDer, contentInfo);
  if (contentInfo.tag !== 0x30 || type?.tag !== 0x06 || explicit?.tag !== 0xa0) throw new Error('not a ContentInfo');
  const signedData = der.readElement(cmsDer, explicit.contentStart);
  const fields = der.children(cmsDer, signedData);
  const signerInfos = fields[fields.length - 1];
  if (signedData.tag !== 0x30 || signerInfos?.tag !== 0x31) throw new Error('not a CMS SignedData');
  const [first, ...others] = der.children(cmsDer, signerInfos);
  if (!first) throw new Error('SignedData without a SignerInfo');
  const kept = der.children(cmsDer, first).filter((element) => element.tag !== 0xa1);
  const unsigned = der.contextConstructed(1, attribute(OID.signatureTimeStampToken, tokenDer));
  const signerInfo = der.sequence(...kept.map((element) => der.bytesOf(cmsDer, element)), unsigned);
  const rebuilt = der.sequence(
    ...fields.slice(0, -1).map((element) => der.bytesOf(cmsDer, element)),
    der.set(signerInfo, ...others.map((element) => der.bytesOf(cmsDer, element))),
  );
  return der.sequence(der.bytesOf(cmsDer, type), der.contextConstructed(0, rebuilt));
}

export function parseSignedData(der: Uint8Array): { signedData: pkijs.SignedData } {
  const contentInfo = pkijs.ContentInfo.fromBER(arrayBuffer(der));
  if (contentInfo.contentType !== OID.signedData) throw new Error('not a CMS SignedData');
  return { signedData: new pkijs.SignedData({ schema: contentInfo.content }) };
}

export function attributeValue(signerInfo: pkijs.SignerInfo, type: string, unsigned = false): asn1js.AsnType | null {
  const set = unsigned ? signerInfo.unsignedAttrs : signerInfo.signedAttrs;
  return set?.attributes.find((a) => a.type === type)?.values[0] ?? null;
}

/** The certificate a SignerInfo names (issuer and serial, or subject key identifier). */
export function signerCertificate(
  signedData: pkijs.SignedData,
  signerInfo: pkijs.SignerInfo,
): pkijs.Certificate | null {
  return signerCertificateAmong(certificatesOf(signedData), signerInfo);
}

/** The SignedData's certificates (not attribute or other certificate formats). */
const certificatesOf = (signedData: pkijs.SignedData) =>
  (signedData.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);

/** The certificate among `certificates` that the SignerInfo names (issuer and serial, or subject key identifier). */
function signerCertificateAmong(
  certificates: readonly pkijs.Certificate[],
  signerInfo: pkijs.SignerInfo,
): pkijs.Certificate | null {
  const sid = signerInfo.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certificates.find((c) => c.issuer.isEqual(sid.issuer) && c.serialNumber.isEqual(sid.serialNumber)) ?? null;
  }
  const keyId = new Uint8Array((sid as asn1js.OctetString).valueBlock.valueHexView);
  return (
    certificates.find((c) => {
      const ski = c.extensions?.find((e) => e.extnID === '2.5.29.14')?.parsedValue as asn1js.OctetString | undefined;
      return ski && Buffer.from(ski.valueBlock.valueHexView).equals(Buffer.from(keyId));
    }) ?? null
  );
}

export interface SignerCheck {
  /** The message-digest attribute equals the content digest (or no signed attributes and the content was signed). */
  digestMatches: boolean;
  /** The signature value verifies with the signer certificate's key. */
  signatureValid: boolean;
  certificate: pkijs.Certificate | null;
  hasSigningTime: boolean;
  hasSigningCertificateV2: boolean;
}

/**
 * Checks a SignerInfo against the content's bytes (detached) or its encapsulated content; with `contentIsDigest` the
 * caller has already hashed the content with the SignerInfo's digest algorithm (a PDF's ByteRange, hashed once).
 */
export function checkSigner(signedData: pkijs.SignedData, content: Uint8Array, contentIsDigest = false): SignerCheck {
  return checkSignerInfo(certificatesOf(signedData), signedData.signerInfos[0]!, content, contentIsDigest);
}

/**
 * A certificate's public key for node:crypto, by certificate object: a certificate read once and kept (the TSA's, see
 * tsa-token.ts) is encoded and read by node:crypto once, not on every signature.
 */
const publicKeys = new WeakMap<pkijs.Certificate, KeyObject>();
function publicKeyOfCertificate(certificate: pkijs.Certificate): KeyObject {
  let key = publicKeys.get(certificate);
  if (!key) {
    key = new X509Certificate(Buffer.from(certificate.toSchema().toBER(false))).publicKey;
    publicKeys.set(certificate, key);
  }
  return key;
}

/** checkSigner for one SignerInfo and the certificates it may name. */
export function checkSignerInfo(
  certificates: readonly pkijs.Certificate[],
  signerInfo: pkijs.SignerInfo,
  content: Uint8Array,
  contentIsDigest = false,
): SignerCheck {
  const certificate = signerCertificateAmong(certificates, signerInfo);
  const hash = HASH_OF_OID[signerInfo.digestAlgorithm.algorithmId] ?? 'sha256';
  const digest = contentIsDigest ? Buffer.from(content) : createHash(hash).update(content).digest();
  const messageDigest = attributeValue(signerInfo, OID.messageDigest) as asn1js.OctetString | null;
  const hasSignedAttrs = (signerInfo.signedAttrs?.attributes.length ?? 0) > 0;
  const digestMatches = hasSignedAttrs
    ? !!messageDigest && Buffer.from(messageDigest.valueBlock.valueHexView).equals(digest)
    : true;
  let signatureValid = false;
  if (certificate) {
    // The signature covers the attributes as a SET (tag 0x31), not with the [0] IMPLICIT tag they are carried in.
    let data = content;
    if (!hasSignedAttrs && contentIsDigest)
      return { digestMatches, signatureValid, certificate, hasSigningTime: false, hasSigningCertificateV2: false };
    if (hasSignedAttrs) {
      data = new Uint8Array(signerInfo.signedAttrs!.encodedValue).slice();
      data[0] = 0x31;
    }
    try {
      const publicKey = publicKeyOfCertificate(certificate);
      signatureValid = cryptoVerify(
        hash,
        data,
        { key: publicKey, dsaEncoding: 'der' },
        Buffer.from(signerInfo.signature.valueBlock.valueHexView),
      );
    } catch {
      signatureValid = false;
    }
  }
  return {
    digestMatches,
    signatureValid,
    certificate,
    hasSigningTime: !!attributeValue(signerInfo, OID.signingTime),
    hasSigningCertificateV2: !!attributeValue(signerInfo, OID.signingCertificateV2),
  };
}

export const certificateDer = (certificate: pkijs.Certificate): Uint8Array =>
  new Uint8Array(certificate.toSchema().toBER(false));
