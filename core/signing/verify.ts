/*
 * Verification of any PDF's signatures, ours or signed elsewhere. Signatures are found through the object model of
 * every revision (core/signing/signature-fields.ts), never by scanning bytes; each ByteRange is checked against the
 * file and hashed, its CMS (or a document timestamp's token) verified, the signer's and the TSA's chains built to a
 * trust anchor, the signer's revocation status established (the PDF's DSS and CMS first, then CRL or OCSP fetched for
 * trusted chains), the changes of every later revision classified (core/signing/changes.ts), and the PAdES baseline
 * level derived from what the DSS really holds. The document's verdict is the most serious finding.
 */
import { createHash, X509Certificate } from 'node:crypto';
import { PDFName, type PDFObject, PDFRawStream } from '@cantoo/pdf-lib';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AppError } from '../http/errors.ts';
import { changeAllowed, classifyRevision, summarize } from './changes.ts';
import { attributeValue, certificateDer, checkSigner, OID, parseSignedData, sha256, signerCertificate } from './cms.ts';
import { BudgetExceededError, PdfFile, type RevisionState } from './pdf-revisions.ts';
import { revocationSource, statusFromEvidence } from './revocation.ts';
import { trimDer } from './byte-ranges.ts';
import { byteRangeProblems, findSignatures, type FoundSignature } from './signature-fields.ts';
import { LOCAL_TSA_LABEL, LOCAL_TSA_POLICY, parseTimestampToken } from './tsa.ts';
import type {
  CertificateStatus,
  DocumentVerdict,
  PadesLevel,
  RevisionChange,
  RevocationReport,
  SignatureReport,
  VerificationReport,
} from './types.ts';

type ByteRange = [number, number, number, number];

/** At most this many distinct signatures are verified and reported; the rest are counted. */
export const REPORTED_SIGNATURES_MAX = 100;

/** Trusted roots (DER): the local CA and whatever SIGNING_TRUST_ANCHORS_FILE lists. */
export interface TrustStore {
  anchors: readonly Uint8Array[];
  /** The local CA's certificate: what it issued is labelled local. */
  localCa: Uint8Array | null;
}

/** What verification takes besides the file; all of it survives structured cloning (the worker pool passes it). */
export interface VerifyOptions {
  /** The time of verification (default: now). */
  now?: Date;
  /** Fetch CRLs and OCSP responses for trusted chains whose status the PDF itself does not establish. */
  fetchRevocation?: boolean;
  revocationTimeoutMs?: number;
  /** The local CA's current CRL, so certificates it issued are checked without a request to ourselves. */
  localCaCrl?: Uint8Array;
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

const oneLine = (name: string) => name.replace(/\n/g, ', ');
const derOf = (c: X509Certificate) => new Uint8Array(c.raw);

/** The signatures (object model) of a PDF we made ourselves, with their chains and /Contents, for the DSS. */
export function collectChains(pdf: Uint8Array): { der: Uint8Array; contents: Uint8Array; chains: Uint8Array[][] }[] {
  const file = new PdfFile(pdf);
  return findSignatures(file, file.revisionEnds()).flatMap(({ contents }) => {
    if (!contents) return [];
    const der = trimDer(contents);
    try {
      const { signedData } = parseSignedData(der);
      const pool = cmsCertificates(signedData);
      const chains: Uint8Array[][] = [];
      const signerInfo = signedData.signerInfos[0];
      const signer = signerInfo && signerCertificate(signedData, signerInfo);
      if (signer) chains.push(buildChain(certificateDer(signer), pool).map(derOf));
      const token = signerInfo && attributeValue(signerInfo, OID.signatureTimeStampToken, true);
      if (token) {
        const parsed = parseTimestampToken(new Uint8Array(token.toBER(false)));
        if (parsed.certificate) {
          chains.push(buildChain(certificateDer(parsed.certificate), cmsCertificates(parsed.signedData)).map(derOf));
        }
      }
      return [{ der, contents, chains }];
    } catch {
      return [];
    }
  });
}

interface DssContent {
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocspResponses: Uint8Array[];
}

/** The DSS (ISO 32000-2 §12.8.4.3) of a revision: its streams, decoded, whatever the shape of its arrays. */
function readDss(state: RevisionState): DssContent | null {
  const dss = state.dict(state.root()?.get(PDFName.of('DSS')));
  if (!dss) return null;
  const streams = (key: string): Uint8Array[] =>
    (state.array(dss.get(PDFName.of(key)))?.asArray() ?? []).flatMap((item: PDFObject) => {
      const stream = state.resolve(item);
      if (!(stream instanceof PDFRawStream)) return [];
      try {
        return [state.file.decode(stream)];
      } catch (error) {
        if (error instanceof BudgetExceededError) throw error;
        return [];
      }
    });
  return { certificates: streams('Certs'), crls: streams('CRLs'), ocspResponses: streams('OCSPs') };
}

function rangeDigest(pdf: Uint8Array, [a, b, c, d]: ByteRange, algorithm: string): Buffer {
  return createHash(algorithm)
    .update(pdf.subarray(a, a + b))
    .update(pdf.subarray(c, c + d))
    .digest();
}

function describe(certificate: X509Certificate): NonNullable<SignatureReport['certificate']> {
  return {
    subject: oneLine(certificate.subject),
    issuer: oneLine(certificate.issuer),
    serialNumber: certificate.serialNumber,
    notBefore: new Date(certificate.validFrom).toISOString(),
    notAfter: new Date(certificate.validTo).toISOString(),
    fingerprintSha256: certificate.fingerprint256.replace(/:/g, '').toLowerCase(),
  };
}

/** CRLs and OCSP responses a CMS carries itself: SignedData.crls and Adobe's revocationInfoArchival attribute. */
function cmsEvidence(signedData: pkijs.SignedData): { crls: Uint8Array[]; ocspResponses: Uint8Array[] } {
  const crls: Uint8Array[] = [];
  const ocspResponses: Uint8Array[] = [];
  for (const crl of signedData.crls ?? []) {
    if (crl instanceof pkijs.CertificateRevocationList) crls.push(new Uint8Array(crl.toSchema().toBER(false)));
  }
  const archival = signedData.signerInfos[0] && attributeValue(signedData.signerInfos[0], '1.2.840.113583.1.1.8');
  if (archival instanceof asn1js.Sequence) {
    for (const item of archival.valueBlock.value) {
      const tag = item.idBlock.tagNumber;
      const inner = (item as asn1js.Constructed).valueBlock.value?.[0] as asn1js.Sequence | undefined;
      for (const element of inner?.valueBlock.value ?? []) {
        const der = new Uint8Array(element.toBER(false));
        if (tag === 0) crls.push(der);
        else if (tag === 1) ocspResponses.push(der);
      }
    }
  }
  return { crls, ocspResponses };
}

interface Context {
  pdf: Uint8Array;
  trust: TrustStore;
  options: VerifyOptions;
  now: Date;
  dss: DssContent | null;
  digests: Map<string, Buffer>;
  online?: ReturnType<typeof revocationSource>;
}

function timestampReport(
  ctx: Context,
  tokenDer: Uint8Array,
  imprintOf: () => Uint8Array | null,
): { report: NonNullable<SignatureReport['timestamp']>; chain: X509Certificate[] | null; time: Date | null } {
  try {
    const token = parseTimestampToken(tokenDer);
    const imprint = Buffer.from(token.tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView);
    const algorithm = token.tstInfo.messageImprint.hashAlgorithm.algorithmId;
    const hashName = algorithm === OID.sha384 ? 'sha384' : algorithm === OID.sha512 ? 'sha512' : 'sha256';
    const data = imprintOf();
    const expected = data ? createHash(hashName).update(data).digest() : null;
    const leaf = token.certificate ? certificateDer(token.certificate) : null;
    const chain = leaf
      ? buildChain(leaf, [...cmsCertificates(token.signedData), ...(ctx.dss?.certificates ?? []), ...ctx.trust.anchors])
      : null;
    const issuedByLocalCa =
      !!ctx.trust.localCa &&
      !!leaf &&
      new X509Certificate(leaf).verify(new X509Certificate(ctx.trust.localCa).publicKey);
    const local = token.tstInfo.policy === LOCAL_TSA_POLICY || issuedByLocalCa;
    return {
      report: {
        time: token.tstInfo.genTime.toISOString(),
        tsa: local ? LOCAL_TSA_LABEL : leaf ? oneLine(new X509Certificate(leaf).subject) : 'unknown',
        valid: token.signatureValid && !!expected && imprint.equals(expected),
        local,
        chain: chain ? chainVerdict(chain, ctx.trust) : 'incomplete',
      },
      chain,
      time: token.tstInfo.genTime,
    };
  } catch {
    return {
      report: { time: '', tsa: 'unknown', valid: false, local: false, chain: 'incomplete' },
      chain: null,
      time: null,
    };
  }
}

/** Revocation data for each non-root certificate of `chain` (leaf first), from `evidence`, fetched when allowed. */
async function chainStatuses(
  ctx: Context,
  chain: X509Certificate[],
  evidence: { crls: Uint8Array[]; ocspResponses: Uint8Array[] },
  online: boolean,
): Promise<{ status: CertificateStatus; source: RevocationReport['source'] }[]> {
  const out: { status: CertificateStatus; source: RevocationReport['source'] }[] = [];
  for (let i = 0; i < chain.length; i++) {
    const certificate = chain[i]!;
    if (certificate.issuer === certificate.subject) continue;
    const issuer = chain[i + 1];
    if (!issuer) {
      out.push({ status: unknownStatus(certificate, 'its issuer certificate is missing'), source: null });
      continue;
    }
    let status = await statusFromEvidence(derOf(certificate), derOf(issuer), evidence, ctx.now);
    let source: RevocationReport['source'] = status.status === 'unknown' ? null : 'dss';
    if (status.status === 'unknown' && online) {
      const fetched = (await onlineSource(ctx).check([derOf(certificate), derOf(issuer)]))[0];
      if (fetched && fetched.status !== 'unknown') {
        status = fetched;
        source = 'online';
      } else if (fetched) status = { ...fetched, detail: `${status.detail ?? ''}; ${fetched.detail ?? ''}` };
    }
    out.push({ status, source });
  }
  return out;
}

function unknownStatus(certificate: X509Certificate, detail: string): CertificateStatus {
  return {
    certificate: derOf(certificate),
    subject: oneLine(certificate.subject),
    status: 'unknown',
    method: null,
    revokedAt: null,
    reason: null,
    thisUpdate: null,
    detail,
  };
}

/**
 * The CRL and OCSP client of one verification: its cache lives as long as the verification (signatures of one file
 * share CRLs), so a revocation published a minute ago is never hidden by an earlier verification's answer.
 */
function onlineSource(ctx: Context) {
  ctx.online ??= revocationSource({
    localCa: async () => {
      const { localCa } = ctx.trust;
      if (!localCa || !ctx.options.localCaCrl) throw new Error('the local CA CRL was not given');
      return { certificate: localCa, crl: ctx.options.localCaCrl };
    },
    timeoutMs: ctx.options.revocationTimeoutMs ?? 10_000,
    now: () => ctx.now,
  });
  return ctx.online;
}

/** Does the DSS hold usable revocation data for every non-root certificate of every chain (no network)? */
async function dssCovers(ctx: Context, dss: DssContent | null, chains: X509Certificate[][]): Promise<boolean> {
  if (!dss) return false;
  const inDss = new Set(dss.certificates.map((c) => Buffer.from(sha256(c)).toString('hex')));
  for (const chain of chains) {
    for (let i = 0; i < chain.length; i++) {
      const certificate = chain[i]!;
      if (i > 0 && !inDss.has(Buffer.from(sha256(derOf(certificate))).toString('hex'))) return false;
      if (certificate.issuer === certificate.subject) continue;
      const issuer = chain[i + 1];
      if (!issuer) return false;
      const status = await statusFromEvidence(derOf(certificate), derOf(issuer), dss, ctx.now);
      if (status.status === 'unknown') return false;
    }
    const top = chain[chain.length - 1]!;
    if (top.issuer !== top.subject) return false;
  }
  return true;
}

interface Checked {
  found: FoundSignature;
  report: SignatureReport;
  signerChain: X509Certificate[] | null;
  tsaChain: X509Certificate[] | null;
  /** The time a valid timestamp proves the signature existed at. */
  provenTime: Date | null;
}

async function checkSignature(
  ctx: Context,
  file: PdfFile,
  found: FoundSignature,
  index: number,
  ends: number[],
): Promise<Checked> {
  const isDocumentTimestamp = found.type === 'DocTimeStamp' || found.subFilter === 'ETSI.RFC3161';
  const range = found.byteRange ?? [0, 0, 0, 0];
  const end = range[2] + range[3];
  const report: SignatureReport = {
    index,
    fieldName: found.fieldName,
    subFilter: found.subFilter ?? (isDocumentTimestamp ? 'ETSI.RFC3161' : 'unknown'),
    kind: isDocumentTimestamp ? 'document-timestamp' : 'signature',
    status: 'indeterminate',
    revision: null,
    certification: found.docMdp,
    signerName: found.name,
    certificate: null,
    claimedTime: found.claimedTime,
    byteRange: range,
    integrity: 'unknown',
    coverage: end === file.bytes.length ? 'whole-document' : 'revision',
    chain: 'incomplete',
    chainSubjects: [],
    timestamp: null,
    revocation: {
      status: 'not-checked',
      subject: null,
      source: null,
      method: null,
      revokedAt: null,
      reason: null,
      detail: null,
    },
    ltv: {
      dss: false,
      crls: ctx.dss?.crls.length ?? 0,
      ocspResponses: ctx.dss?.ocspResponses.length ?? 0,
      certificates: ctx.dss?.certificates.length ?? 0,
    },
    padesLevel: null,
    problems: [],
  };
  const checked: Checked = { found, report, signerChain: null, tsaChain: null, provenTime: null };
  const { problems, revision } = byteRangeProblems(file, found, ends);
  report.revision = revision;
  report.problems.push(...problems);
  if (found.copies > 1) report.problems.push('duplicate-byte-range');
  if (!found.contents) {
    report.problems.push('contents-missing');
    return checked;
  }
  const rangeUsable = !problems.includes('byte-range-invalid');
  const digestOf = (algorithm: string): Buffer | null => {
    if (!rangeUsable) return null;
    const key = `${range.join(' ')}:${algorithm}`;
    let digest = ctx.digests.get(key);
    if (!digest) {
      digest = rangeDigest(ctx.pdf, range, algorithm);
      ctx.digests.set(key, digest);
    }
    return digest;
  };
  const der = trimDer(found.contents);
  let signedData: pkijs.SignedData;
  try {
    signedData = parseSignedData(der).signedData;
  } catch {
    report.problems.push('cms-unreadable');
    return checked;
  }
  let leaf: Uint8Array | null;
  const pool = [...cmsCertificates(signedData), ...(ctx.dss?.certificates ?? []), ...ctx.trust.anchors];
  if (isDocumentTimestamp) {
    const bytes = rangeUsable ? signedBytes(ctx.pdf, range) : null;
    const token = timestampReport(ctx, der, () => bytes);
    report.timestamp = token.report;
    report.integrity = !rangeUsable ? 'unknown' : token.report.valid ? 'valid' : 'invalid';
    if (rangeUsable && !token.report.valid) report.problems.push('digest-mismatch');
    if (token.report.time) report.claimedTime = token.report.time;
    leaf = token.chain ? derOf(token.chain[0]!) : null;
    checked.tsaChain = token.chain;
    if (token.report.valid) checked.provenTime = token.time;
  } else {
    const signerInfo = signedData.signerInfos[0];
    if (!signerInfo) {
      report.problems.push('cms-unreadable');
      return checked;
    }
    const algorithm = ({ [OID.sha384]: 'sha384', [OID.sha512]: 'sha512' } as Record<string, string>)[
      signerInfo.digestAlgorithm.algorithmId
    ];
    const withoutAttributes = (signerInfo.signedAttrs?.attributes.length ?? 0) === 0;
    const digest = digestOf(algorithm ?? 'sha256');
    if (digest) {
      // Without signed attributes the signature is over the content itself, which then has to be read whole.
      const check = withoutAttributes
        ? checkSigner(signedData, signedBytes(ctx.pdf, range))
        : checkSigner(signedData, digest, true);
      // A ByteRange that leaves unsigned bytes beside its own /Contents does not cover what it claims to.
      const covers = !problems.includes('byte-range-gap-invalid') && !problems.includes('byte-range-not-revision-end');
      report.integrity = check.digestMatches && check.signatureValid && covers ? 'valid' : 'invalid';
      if (!check.digestMatches) report.problems.push('digest-mismatch');
      if (!check.signatureValid) report.problems.push('signature-value-invalid');
      leaf = check.certificate ? certificateDer(check.certificate) : null;
      if (report.subFilter === 'ETSI.CAdES.detached') {
        if (check.hasSigningTime) report.problems.push('signing-time-attribute-present');
        if (!check.hasSigningCertificateV2) report.problems.push('signing-certificate-v2-missing');
      }
    } else {
      const certificate = signerCertificate(signedData, signerInfo);
      leaf = certificate ? certificateDer(certificate) : null;
    }
    const token = attributeValue(signerInfo, OID.signatureTimeStampToken, true) as asn1js.AsnType | null;
    if (token) {
      const signatureValue = new Uint8Array(signerInfo.signature.valueBlock.valueHexView);
      const stamped = timestampReport(ctx, new Uint8Array(token.toBER(false)), () => signatureValue);
      report.timestamp = stamped.report;
      checked.tsaChain = stamped.chain;
      if (!stamped.report.valid) report.problems.push('timestamp-invalid');
      else {
        checked.provenTime = stamped.time;
        if (stamped.report.chain !== 'trusted') report.problems.push(`timestamp-chain-${stamped.report.chain}`);
      }
    }
  }
  if (!leaf) {
    report.problems.push('signer-certificate-missing');
    return checked;
  }
  const chain = buildChain(leaf, pool);
  checked.signerChain = chain;
  report.certificate = describe(chain[0]!);
  report.chain = chainVerdict(chain, ctx.trust);
  report.chainSubjects = chain.map((c) => oneLine(c.subject));
  if (report.chain !== 'trusted') report.problems.push(`chain-${report.chain}`);
  const signingTime = checked.provenTime ?? (found.claimedTime ? new Date(found.claimedTime) : null);
  if (signingTime) {
    const certificate = chain[0]!;
    if (signingTime < new Date(certificate.validFrom) || signingTime > new Date(certificate.validTo)) {
      report.problems.push('certificate-not-valid-at-signing-time');
    }
  }
  if (!isDocumentTimestamp) {
    await checkRevocation(ctx, checked, cmsEvidence(signedData));
  }
  return checked;
}

function signedBytes(pdf: Uint8Array, [a, b, c, d]: ByteRange): Uint8Array {
  const out = new Uint8Array(b + d);
  out.set(pdf.subarray(a, a + b), 0);
  out.set(pdf.subarray(c, c + d), b);
  return out;
}

async function checkRevocation(
  ctx: Context,
  checked: Checked,
  fromCms: { crls: Uint8Array[]; ocspResponses: Uint8Array[] },
): Promise<void> {
  const { report, signerChain } = checked;
  if (!signerChain || report.chain !== 'trusted' || signerChain.length < 2) return; // not-checked
  const evidence = {
    crls: [...(ctx.dss?.crls ?? []), ...fromCms.crls],
    ocspResponses: [...(ctx.dss?.ocspResponses ?? []), ...fromCms.ocspResponses],
  };
  const statuses = await chainStatuses(ctx, signerChain, evidence, ctx.options.fetchRevocation === true);
  const revoked = statuses.find((s) => s.status.status === 'revoked');
  const unknown = statuses.find((s) => s.status.status === 'unknown');
  const pick = revoked ?? unknown ?? statuses[0];
  if (!pick) return;
  const { status } = pick;
  const inDss = (s: CertificateStatus) =>
    (s.crl && ctx.dss?.crls.some((c) => Buffer.from(c).equals(Buffer.from(s.crl!)))) ||
    (s.ocspResponse && ctx.dss?.ocspResponses.some((c) => Buffer.from(c).equals(Buffer.from(s.ocspResponse!))));
  report.revocation = {
    status: 'good',
    subject: status.subject,
    source: pick.source === 'dss' && !inDss(status) ? 'cms' : pick.source,
    method: status.method,
    revokedAt: status.revokedAt?.toISOString() ?? null,
    reason: status.reason,
    detail: status.detail,
  };
  if (revoked) {
    const after = !!checked.provenTime && !!status.revokedAt && status.revokedAt > checked.provenTime;
    report.revocation.status = after ? 'revoked-after-signing' : 'revoked';
    report.problems.push(after ? 'certificate-revoked-after-signing' : 'certificate-revoked');
  } else if (unknown) {
    report.revocation.status = 'unknown';
    report.problems.push('revocation-unavailable');
  }
}

const INVALID = new Set([
  'byte-range-invalid',
  'byte-range-gap-invalid',
  'byte-range-not-revision-end',
  'digest-mismatch',
  'signature-value-invalid',
  'timestamp-invalid',
  'certificate-revoked',
  'changed-after-signing',
  'certification-not-first',
]);

function statusOf(report: SignatureReport): SignatureReport['status'] {
  if (report.integrity === 'invalid' || report.problems.some((p) => INVALID.has(p))) return 'invalid';
  if (report.integrity !== 'valid' || report.problems.includes('duplicate-byte-range')) return 'indeterminate';
  if (report.chain !== 'trusted' || report.revocation.status === 'unknown') return 'indeterminate';
  if (report.problems.some((p) => p.startsWith('timestamp-chain-') || p === 'certificate-not-valid-at-signing-time')) {
    return 'indeterminate';
  }
  return 'valid';
}

/** Verifies every signature and document timestamp of `pdf`. */
export async function verifyPdf(
  pdf: Uint8Array,
  trust: TrustStore,
  options: VerifyOptions = {},
): Promise<VerificationReport> {
  let file: PdfFile;
  let ends: number[];
  try {
    file = await PdfFile.open(pdf);
    ends = file.revisionEnds();
  } catch (error) {
    if (error instanceof BudgetExceededError)
      throw new AppError('VERIFICATION_BUDGET_EXCEEDED', { detail: error.message });
    if (/NEEDS PASSWORD/.test((error as Error).message ?? '')) throw new AppError('FILE_PASSWORD_PROTECTED');
    throw new AppError('FILE_CORRUPTED', { detail: (error as Error).message });
  }
  try {
    return await verifyFile(file, ends, pdf, trust, options);
  } catch (error) {
    if (error instanceof BudgetExceededError)
      throw new AppError('VERIFICATION_BUDGET_EXCEEDED', { detail: error.message });
    throw error;
  }
}

async function verifyFile(
  file: PdfFile,
  ends: number[],
  pdf: Uint8Array,
  trust: TrustStore,
  options: VerifyOptions,
): Promise<VerificationReport> {
  const latest = file.state(pdf.length) ?? file.state(ends[ends.length - 1] ?? pdf.length);
  const ctx: Context = {
    pdf,
    trust,
    options,
    now: options.now ?? new Date(),
    dss: latest ? readDss(latest) : null,
    digests: new Map(),
  };
  const found = findSignatures(file, ends);
  const reported = found.slice(0, REPORTED_SIGNATURES_MAX);
  const checked: Checked[] = [];
  for (const [index, signature] of reported.entries())
    checked.push(await checkSignature(ctx, file, signature, index, ends));

  // Certification: the signature carrying a DocMDP transform (ISO 32000 lets only the first one certify).
  const certifying = checked.find((c) => c.report.certification !== null) ?? null;
  const certificationLevel = certifying?.report.certification ?? null;
  if (
    certifying &&
    checked.some(
      (c) => c.report.kind === 'signature' && (c.report.revision ?? Infinity) < (certifying.report.revision ?? 0),
    )
  ) {
    certifying.report.problems.push('certification-not-first');
  }

  // Changes of every revision after the first signed one.
  const signedRevisions = checked.map((c) => c.report.revision).filter((r): r is number => r !== null);
  const firstSigned = signedRevisions.length > 0 ? Math.min(...signedRevisions) : null;
  const changes: RevisionChange[] = [];
  if (firstSigned !== null) {
    const coveringRevisions = checked
      .filter((c) => c.report.kind === 'signature' && c.report.integrity === 'valid' && c.report.revision !== null)
      .map((c) => c.report.revision!);
    for (let revision = firstSigned + 1; revision <= ends.length; revision++) {
      const before = file.state(ends[revision - 2]!);
      const after = file.state(ends[revision - 1]!);
      if (!before || !after) continue;
      const covered = coveringRevisions.some((r) => r >= revision);
      const level = certifying && (certifying.report.revision ?? Infinity) < revision ? certificationLevel : null;
      changes.push(
        ...summarize(revision, classifyRevision(before, after), (kind) => changeAllowed(kind, level, covered)),
      );
    }
    const lastEnd = ends[ends.length - 1] ?? 0;
    if (lastEnd < pdf.length && /\S/.test(file.text.slice(lastEnd))) {
      changes.push({ revision: ends.length + 1, kind: 'unrecognized-bytes', allowed: false, page: null, objects: [] });
    }
  }

  for (const c of checked) {
    const { report } = c;
    const after = changes.filter((change) => report.revision !== null && change.revision > report.revision);
    if (after.some((change) => !change.allowed)) report.problems.push('changed-after-signing');
    if (report === certifying?.report && after.some((change) => !change.allowed))
      report.problems.push('certification-violated');
  }

  // PAdES levels from what the DSS holds: the latest DSS for B-LT, the DSS a later document timestamp covers for B-LTA.
  for (const c of checked) {
    const { report } = c;
    if (report.kind !== 'signature') continue;
    const chains = [c.signerChain, c.tsaChain].filter((x): x is X509Certificate[] => !!x);
    report.ltv.dss = chains.length > 0 && (await dssCovers(ctx, ctx.dss, chains));
    report.padesLevel = baseLevel(report);
    if (report.padesLevel === 'B-T' && report.ltv.dss) {
      report.padesLevel = 'B-LT';
      for (const stamp of checked) {
        if (stamp.report.kind !== 'document-timestamp' || stamp.report.integrity !== 'valid') continue;
        if ((stamp.report.revision ?? 0) <= (report.revision ?? Infinity)) continue;
        const covered = file.state(ends[stamp.report.revision! - 1]!);
        if (covered && (await dssCovers(ctx, covered ? readDss(covered) : null, chains))) {
          report.padesLevel = 'B-LTA';
          break;
        }
      }
    }
  }
  for (const { report } of checked) report.status = statusOf(report);

  const signatures = checked.map((c) => c.report);
  const signaturesOmitted = found.length - reported.length;
  const signedEnd = Math.max(0, ...signatures.map((s) => s.byteRange[2] + s.byteRange[3]));
  return {
    sha256: Buffer.from(sha256(pdf)).toString('hex'),
    revisions: ends.length,
    verdict: verdictOf(signatures, signaturesOmitted),
    signatures,
    signaturesOmitted,
    certification: certifying
      ? {
          level: certificationLevel!,
          signatureIndex: certifying.report.index,
          violated: certifying.report.problems.includes('certification-violated'),
        }
      : null,
    changes,
    encrypted: file.encrypted,
    allIntact: signatures.length > 0 && signaturesOmitted === 0 && signatures.every((s) => s.integrity === 'valid'),
    unsignedTrailingBytes: signatures.length === 0 ? 0 : Math.max(0, pdf.length - signedEnd),
  };
}

function verdictOf(signatures: SignatureReport[], omitted: number): DocumentVerdict {
  if (signatures.length === 0) return 'no-signatures';
  if (signatures.some((s) => s.problems.includes('changed-after-signing'))) return 'changed-after-signing';
  if (signatures.some((s) => s.status === 'invalid')) return 'invalid';
  if (omitted > 0 || signatures.some((s) => s.status === 'indeterminate')) return 'indeterminate';
  return 'valid';
}

/** B-B or B-T for a CAdES-detached signature (ETSI EN 319 142-1 §6); B-LT and B-LTA are added from the DSS. */
function baseLevel(report: SignatureReport): PadesLevel | null {
  if (report.kind !== 'signature' || report.subFilter !== 'ETSI.CAdES.detached') return null;
  if (report.integrity !== 'valid' || report.problems.includes('signing-time-attribute-present')) return null;
  if (report.problems.includes('signing-certificate-v2-missing')) return null;
  return report.timestamp?.valid ? 'B-T' : 'B-B';
}
