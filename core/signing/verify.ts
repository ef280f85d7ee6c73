/*
 * Verification of any PDF's signatures, ours or signed elsewhere: each ByteRange is hashed and checked against its
 * CMS (or, for a document timestamp, its token's imprint), the signer's chain is built from the CMS and the DSS to a
 * trust anchor, the signature timestamp and the LTV data are read, and the PAdES baseline level is derived.
 */
import { createHash, X509Certificate } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRef,
  PDFStream,
  PDFString,
  decodePDFRawStream,
} from '@cantoo/pdf-lib';
import type * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { attributeValue, certificateDer, checkSigner, OID, parseSignedData, sha256, signerCertificate } from './cms.ts';
import { signatureContents } from './byte-ranges.ts';
import { LOCAL_TSA_POLICY, LOCAL_TSA_LABEL, parseTimestampToken } from './tsa.ts';
import type { PadesLevel, SignatureReport, VerificationReport } from './types.ts';

type ByteRange = [number, number, number, number];

/** Trusted roots (DER): the local CA and whatever SIGNING_TRUST_ANCHORS_FILE lists. */
export interface TrustStore {
  anchors: readonly Uint8Array[];
  /** The local CA's certificate: what it issued is labelled local. */
  localCa: Uint8Array | null;
}

/** Reads a PEM bundle into DER certificates. */
export function parsePemBundle(pem: string): Uint8Array[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) => new Uint8Array(new X509Certificate(block).raw));
}

function cmsCertificates(signedData: pkijs.SignedData): Uint8Array[] {
  return (signedData.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map(certificateDer);
}

/** Orders `pool` into a chain from `leaf` up (leaf first), following issuer names and verifying each signature. */
export function buildChain(leaf: Uint8Array, pool: readonly Uint8Array[]): X509Certificate[] {
  const candidates = dedupe(pool).map((der) => new X509Certificate(der));
  const chain = [new X509Certificate(leaf)];
  for (let current = chain[0]!; chain.length < 10;) {
    if (current.issuer === current.subject && current.verify(current.publicKey)) break;
    const issuer = candidates.find(
      (c) =>
        c.subject === current.issuer &&
        !chain.some((k) => k.fingerprint256 === c.fingerprint256) &&
        current.verify(c.publicKey),
    );
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}

function dedupe(items: readonly Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = Buffer.from(sha256(item)).toString('hex');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function chainVerdict(chain: X509Certificate[], trust: TrustStore): SignatureReport['chain'] {
  const top = chain[chain.length - 1]!;
  const anchors = trust.anchors.map((a) => new X509Certificate(a).fingerprint256);
  if (chain.some((c) => anchors.includes(c.fingerprint256))) return 'trusted';
  return top.issuer === top.subject ? 'untrusted' : 'incomplete';
}

/** Every signature's and timestamp's certificate chains as the CMS carries them (leaf first), for the DSS. */
export function collectChains(pdf: Uint8Array): { der: Uint8Array; chains: Uint8Array[][] }[] {
  return signatureContents(pdf).flatMap(({ der }) => {
    try {
      const { signedData } = parseSignedData(der);
      const pool = cmsCertificates(signedData);
      const chains: Uint8Array[][] = [];
      const signer = signedData.signerInfos[0] && signerCertificate(signedData, signedData.signerInfos[0]);
      if (signer) chains.push(buildChain(certificateDer(signer), pool).map((c) => new Uint8Array(c.raw)));
      const token =
        signedData.signerInfos[0] && attributeValue(signedData.signerInfos[0], OID.signatureTimeStampToken, true);
      if (token) {
        const parsed = parseTimestampToken(new Uint8Array(token.toBER(false)));
        if (parsed.certificate) {
          chains.push(
            buildChain(certificateDer(parsed.certificate), cmsCertificates(parsed.signedData)).map(
              (c) => new Uint8Array(c.raw),
            ),
          );
        }
      }
      return [{ der, chains }];
    } catch {
      return [];
    }
  });
}

interface SignatureDictionary {
  fieldName: string | null;
  type: string | null;
  subFilter: string | null;
  name: string | null;
  claimedTime: string | null;
}

interface DssContent {
  certificates: Uint8Array[];
  crls: number;
  ocspResponses: number;
  /** VRI keys (upper-case hex SHA-1 of a signature's /Contents). */
  vri: Set<string>;
}

const text = (value: unknown): string | null =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;

/** Reads the signature dictionaries (by ByteRange) and the DSS through the PDF's object structure. */
async function readStructure(
  pdf: Uint8Array,
): Promise<{ dictionaries: Map<string, SignatureDictionary>; dss: DssContent | null }> {
  const dictionaries = new Map<string, SignatureDictionary>();
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false, throwOnInvalidObject: false });
  } catch {
    return { dictionaries, dss: null };
  }
  const fieldNames = new Map<string, string>();
  const signatures: [PDFRef, PDFDict][] = [];
  for (const [ref, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.get(PDFName.of('ByteRange'))) signatures.push([ref, object]);
    const v = object.get(PDFName.of('V'));
    const t = text(object.lookup(PDFName.of('T')));
    if (v instanceof PDFRef && t) fieldNames.set(v.toString(), t);
  }
  for (const [ref, dict] of signatures) {
    const range = dict.lookupMaybe(PDFName.of('ByteRange'), PDFArray);
    if (!range) continue;
    const key = range
      .asArray()
      .map((n) => n.toString())
      .join(' ');
    const m = dict.lookup(PDFName.of('M'));
    let claimedTime: string | null = null;
    if (m instanceof PDFString) {
      try {
        claimedTime = m.decodeDate().toISOString();
      } catch {
        claimedTime = null;
      }
    }
    dictionaries.set(key, {
      fieldName: fieldNames.get(ref.toString()) ?? null,
      type: dict.lookupMaybe(PDFName.of('Type'), PDFName)?.decodeText() ?? null,
      subFilter: dict.lookupMaybe(PDFName.of('SubFilter'), PDFName)?.decodeText() ?? null,
      name: text(dict.lookup(PDFName.of('Name'))),
      claimedTime,
    });
  }
  const dssDict = doc.catalog.lookupMaybe(PDFName.of('DSS'), PDFDict);
  if (!dssDict) return { dictionaries, dss: null };
  const streams = (key: string): Uint8Array[] => {
    const array = dssDict.lookupMaybe(PDFName.of(key), PDFArray);
    const out: Uint8Array[] = [];
    for (let i = 0; i < (array?.size() ?? 0); i++) {
      const stream = array!.lookup(i);
      if (stream instanceof PDFStream) out.push(decodePDFRawStream(stream as never).decode());
    }
    return out;
  };
  const vri = new Set<string>();
  const vriDict = dssDict.lookupMaybe(PDFName.of('VRI'), PDFDict);
  for (const key of vriDict?.keys() ?? []) vri.add(key.decodeText().toUpperCase());
  return {
    dictionaries,
    dss: { certificates: streams('Certs'), crls: streams('CRLs').length, ocspResponses: streams('OCSPs').length, vri },
  };
}

function rangeBytes(pdf: Uint8Array, [a, b, c, d]: ByteRange): Uint8Array | null {
  if (a !== 0 || b < 0 || c < b || d < 0 || c + d > pdf.length) return null;
  const out = new Uint8Array(b + d);
  out.set(pdf.subarray(a, a + b), 0);
  out.set(pdf.subarray(c, c + d), b);
  return out;
}

function describe(certificate: X509Certificate): NonNullable<SignatureReport['certificate']> {
  return {
    subject: certificate.subject.replace(/\n/g, ', '),
    issuer: certificate.issuer.replace(/\n/g, ', '),
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprintSha256: certificate.fingerprint256.replace(/:/g, '').toLowerCase(),
  };
}

function tokenReport(
  tokenDer: Uint8Array,
  imprintOf: Uint8Array,
  trust: TrustStore,
): NonNullable<SignatureReport['timestamp']> {
  try {
    const token = parseTimestampToken(tokenDer);
    const imprint = Buffer.from(token.tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
    const algorithm = token.tstInfo.messageImprint.hashAlgorithm.algorithmId;
    const hashName = algorithm === OID.sha384 ? 'sha384' : algorithm === OID.sha512 ? 'sha512' : 'sha256';
    const expected = createHash(hashName).update(imprintOf).digest();
    const issuedByLocalCa =
      !!trust.localCa &&
      !!token.certificate &&
      new X509Certificate(certificateDer(token.certificate)).verify(new X509Certificate(trust.localCa).publicKey);
    const local = token.tstInfo.policy === LOCAL_TSA_POLICY || issuedByLocalCa;
    return {
      time: token.tstInfo.genTime.toISOString(),
      tsa: local
        ? LOCAL_TSA_LABEL
        : token.certificate
          ? new X509Certificate(certificateDer(token.certificate)).subject.replace(/\n/g, ', ')
          : 'unknown',
      valid: token.signatureValid && imprint.equals(expected),
      local,
    };
  } catch {
    return { time: '', tsa: 'unknown', valid: false, local: false };
  }
}

/** Verifies every signature and document timestamp of `pdf`. */
export async function verifyPdf(pdf: Uint8Array, trust: TrustStore): Promise<VerificationReport> {
  const { dictionaries, dss } = await readStructure(pdf);
  const found = signatureContents(pdf);
  const fileEnd = pdf.length;
  const revisions = (Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1').match(/%%EOF/g) ?? [])
    .length;
  const signatures: SignatureReport[] = found.map(({ byteRange, der }, index) => {
    const dictionary = dictionaries.get(byteRange.join(' '));
    const isDocumentTimestamp = dictionary?.type === 'DocTimeStamp' || dictionary?.subFilter === 'ETSI.RFC3161';
    const end = byteRange[2] + byteRange[3];
    const report: SignatureReport = {
      index,
      fieldName: dictionary?.fieldName ?? null,
      subFilter: dictionary?.subFilter ?? (isDocumentTimestamp ? 'ETSI.RFC3161' : 'unknown'),
      kind: isDocumentTimestamp ? 'document-timestamp' : 'signature',
      signerName: dictionary?.name ?? null,
      certificate: null,
      claimedTime: dictionary?.claimedTime ?? null,
      byteRange,
      integrity: 'invalid',
      coverage: end === fileEnd ? 'whole-document' : 'revision',
      chain: 'incomplete',
      chainSubjects: [],
      timestamp: null,
      ltv: { dss: false, crls: 0, ocspResponses: 0, certificates: 0 },
      padesLevel: null,
      problems: [],
    };
    const signed = rangeBytes(pdf, byteRange);
    if (!signed) {
      report.problems.push('byte-range-invalid');
      return report;
    }
    const vriKey = createHash('sha1').update(der).digest('hex').toUpperCase();
    if (dss) {
      report.ltv = {
        dss: dss.vri.size === 0 || dss.vri.has(vriKey),
        crls: dss.crls,
        ocspResponses: dss.ocspResponses,
        certificates: dss.certificates.length,
      };
    }
    try {
      const { signedData } = parseSignedData(der);
      let leaf: Uint8Array | null = null;
      let pool = cmsCertificates(signedData);
      if (isDocumentTimestamp) {
        const token = tokenReport(der, signed, trust);
        report.timestamp = token;
        report.integrity = token.valid ? 'valid' : 'invalid';
        const parsed = parseTimestampToken(der);
        leaf = parsed.certificate ? certificateDer(parsed.certificate) : null;
        if (token.time) report.claimedTime = token.time;
      } else {
        const check = checkSigner(signedData, signed);
        report.integrity = check.digestMatches && check.signatureValid ? 'valid' : 'invalid';
        if (!check.digestMatches) report.problems.push('digest-mismatch');
        if (!check.signatureValid) report.problems.push('signature-value-invalid');
        leaf = check.certificate ? certificateDer(check.certificate) : null;
        const signerInfo = signedData.signerInfos[0]!;
        const token = attributeValue(signerInfo, OID.signatureTimeStampToken, true) as asn1js.AsnType | null;
        if (token) {
          report.timestamp = tokenReport(
            new Uint8Array(token.toBER(false)),
            new Uint8Array(signerInfo.signature.valueBlock.valueHexView),
            trust,
          );
          if (!report.timestamp.valid) report.problems.push('timestamp-invalid');
        }
        if (report.subFilter === 'ETSI.CAdES.detached') {
          if (check.hasSigningTime) report.problems.push('signing-time-attribute-present');
          if (!check.hasSigningCertificateV2) report.problems.push('signing-certificate-v2-missing');
        }
      }
      if (leaf) {
        if (dss) pool = [...pool, ...dss.certificates];
        const chain = buildChain(leaf, [...pool, ...trust.anchors]);
        report.certificate = describe(chain[0]!);
        report.chain = chainVerdict(chain, trust);
        report.chainSubjects = chain.map((c) => c.subject.replace(/\n/g, ', '));
        if (report.chain !== 'trusted') report.problems.push(`chain-${report.chain}`);
      } else {
        report.problems.push('signer-certificate-missing');
      }
    } catch {
      report.problems.push('cms-unreadable');
    }
    return report;
  });
  for (const report of signatures) report.padesLevel = padesLevel(report, signatures);
  const signedEnd = Math.max(0, ...signatures.map((s) => s.byteRange[2] + s.byteRange[3]));
  return {
    sha256: Buffer.from(sha256(pdf)).toString('hex'),
    revisions,
    signatures,
    allIntact: signatures.every((s) => s.integrity === 'valid'),
    unsignedTrailingBytes: signatures.length === 0 ? 0 : Math.max(0, fileEnd - signedEnd),
  };
}

/** The highest baseline level a CAdES-detached signature meets (ETSI EN 319 142-1 §6). */
function padesLevel(report: SignatureReport, all: SignatureReport[]): PadesLevel | null {
  if (report.kind !== 'signature' || report.subFilter !== 'ETSI.CAdES.detached') return null;
  if (report.integrity !== 'valid' || report.problems.includes('signing-time-attribute-present')) return null;
  if (report.problems.includes('signing-certificate-v2-missing')) return null;
  if (!report.timestamp?.valid) return 'B-B';
  if (!report.ltv.dss || report.ltv.crls + report.ltv.ocspResponses === 0) return 'B-T';
  const end = report.byteRange[2] + report.byteRange[3];
  const archived = all.some(
    (s) => s.kind === 'document-timestamp' && s.integrity === 'valid' && s.byteRange[2] + s.byteRange[3] > end,
  );
  return archived ? 'B-LTA' : 'B-LT';
}
