/*
 * CMS SignedData (RFC 5652) as CAdES baseline needs it: SHA-256, signed attributes content-type, message-digest and
 * signing-certificate-v2 (RFC 5035) and never signingTime (PAdES puts the claimed time in the signature
 * dictionary's /M). The signature value comes from a SigningKey, so the private key can live anywhere. The same
 * builder signs RFC 3161 tokens (encapsulated TSTInfo) for the built-in TSA.
 */
import { createHash, verify as cryptoVerify, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
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

function attribute(type: string, value: asn1js.AsnType): pkijs.Attribute {
  return new pkijs.Attribute({ type, values: [value] });
}

/** SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 } with the default hash (SHA-256) omitted. */
function signingCertificateV2(certificateDer: Uint8Array): asn1js.Sequence {
  const certificate = parseCertificate(certificateDer);
  const issuerSerial = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({
        value: [
          new asn1js.Constructed({ idBlock: { tagClass: 3, tagNumber: 4 }, value: [certificate.issuer.toSchema()] }),
        ],
      }),
      certificate.serialNumber,
    ],
  });
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: sha256(certificateDer) }), issuerSerial],
  });
  return new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] });
}

function signatureAlgorithm(key: SigningKey): pkijs.AlgorithmIdentifier {
  return key.algorithm === 'RSA'
    ? new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256WithRsa, algorithmParams: new asn1js.Null() })
    : new pkijs.AlgorithmIdentifier({ algorithmId: OID.ecdsaWithSha256 });
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

/** Builds and signs a SignedData; returns the ContentInfo's DER and the SignerInfo's signature value. */
export async function buildSignedData(
  input: SignedDataInput,
): Promise<{ der: Uint8Array; signatureValue: Uint8Array }> {
  const { key } = input;
  const signer = parseCertificate(key.certificate);
  // DER: a SET OF is sorted by its elements' encodings (X.690 §11.6); verifiers such as OpenSSL re-encode it so.
  const attributes = [
    attribute(OID.contentType, new asn1js.ObjectIdentifier({ value: input.contentType })),
    attribute(OID.messageDigest, new asn1js.OctetString({ valueHex: input.digest })),
    attribute(OID.signingCertificateV2, signingCertificateV2(key.certificate)),
  ]
    .map((a) => ({ a, der: Buffer.from(a.toSchema().toBER(false)) }))
    .sort((x, y) => Buffer.compare(x.der, y.der))
    .map(({ a }) => a);
  const signedAttrsDer = new Uint8Array(new asn1js.Set({ value: attributes.map((a) => a.toSchema()) }).toBER(false));
  const signatureValue = await key.sign(signedAttrsDer);
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: signer.issuer, serialNumber: signer.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 }),
    signedAttrs: new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes }),
    signatureAlgorithm: signatureAlgorithm(key),
    signature: new asn1js.OctetString({ valueHex: signatureValue }),
  });
  const certificates =
    input.includeCertificates === false
      ? []
      : [key.certificate, ...key.chain, ...(input.extraCertificates ?? [])].map(parseCertificate);
  const signedData = new pkijs.SignedData({
    version: input.content ? 3 : 1,
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: OID.sha256 })],
    encapContentInfo: new pkijs.EncapsulatedContentInfo({
      eContentType: input.contentType,
      ...(input.content ? { eContent: new asn1js.OctetString({ valueHex: input.content }) } : {}),
    }),
    ...(certificates.length > 0 ? { certificates } : {}),
    signerInfos: [signerInfo],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return { der: new Uint8Array(contentInfo.toSchema().toBER(false)), signatureValue };
}

/** Adds id-aa-signatureTimeStampToken to the (only) SignerInfo of a SignedData; the signed part is unchanged. */
export function addSignatureTimestamp(cmsDer: Uint8Array, tokenDer: Uint8Array): Uint8Array {
  const { signedData } = parseSignedData(cmsDer);
  const signerInfo = signedData.signerInfos[0]!;
  const token = asn1js.fromBER(tokenDer).result;
  signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 1,
    attributes: [new pkijs.Attribute({ type: OID.signatureTimeStampToken, values: [token] })],
  });
  const contentInfo = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema(true) });
  return new Uint8Array(contentInfo.toSchema().toBER(false));
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
  const certificates = (signedData.certificates ?? []).filter(
    (c): c is pkijs.Certificate => c instanceof pkijs.Certificate,
  );
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
  const signerInfo = signedData.signerInfos[0]!;
  const certificate = signerCertificate(signedData, signerInfo);
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
      const { publicKey } = new X509Certificate(Buffer.from(certificate.toSchema().toBER(false)));
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
