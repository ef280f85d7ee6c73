/*
 * PAdES baseline signatures (ETSI EN 319 142-1) written as incremental updates, so every earlier signature keeps
 * covering exactly the bytes it signed:
 *   B-B   CMS over the ByteRange, SubFilter ETSI.CAdES.detached, no signingTime (the claimed time is /M);
 *   B-T   + an RFC 3161 token over the signature value (id-aa-signatureTimeStampToken);
 *   B-LT  + a DSS (certificates, CRLs, VRI) in a further incremental update;
 *   B-LTA + a document timestamp (SubFilter ETSI.RFC3161) after the DSS.
 * Visible elements (seal or handwritten image, embedded Japanese text) go into the new signature's widget
 * appearance (the first element) and stamp annotations of the same revision (the others), so the new signature
 * covers them and no earlier revision changes.
 * The PDF side of each step (loading the document, drawing, writing the revision with its placeholder) runs in the
 * PDF worker pool when one is given (the service always gives its own), and nothing else does: digests, the key's
 * signature and the TSA call stay on the calling thread, so no key ever leaves it. Without a pool (tests,
 * benchmarks) the same functions run on the calling thread.
 */
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  type PDFPage,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';
import { checkPdfBudget } from '../files/pdf-scan.ts';
import { AppError } from '../http/errors.ts';
import type { PdfWorkPool } from '../pdf-work/pool.ts';
import { drawAppearance, prepareAppearanceResources } from './appearance.ts';
import { signatureContents } from './byte-ranges.ts';
import { addSignatureTimestamp, buildSignedData, sha256 } from './cms.ts';
import { addValidationData } from './dss.ts';
import { tokenCertificateNotAfter } from './tsa.ts';
import type {
  Appearance,
  PadesLevel,
  RevocationSource,
  SignPdfInput,
  SignPdfResult,
  TimestampAuthority,
} from './types.ts';

export { addValidationData };

/** Bytes reserved for the CMS in /Contents: a B-T CMS with two chains is ~6 KB; commercial chains run longer. */
export const SIGNATURE_RESERVE = 24 * 1024;
const TIMESTAMP_RESERVE = 12 * 1024;
const BYTE_RANGE_PLACEHOLDER = '**********';
const LEVELS: PadesLevel[] = ['B-B', 'B-T', 'B-LT', 'B-LTA'];

const atLeast = (level: PadesLevel, wanted: PadesLevel) => LEVELS.indexOf(level) >= LEVELS.indexOf(wanted);

/** Loads a document for an incremental update, after checking it within its budget (pdf-budget.ts). */
async function loadIncremental(pdf: Uint8Array): Promise<PDFDocument> {
  checkPdfBudget(pdf);
  try {
    return await PDFDocument.load(pdf, { forIncrementalUpdate: true, updateMetadata: false });
  } catch (error) {
    throw new AppError('FILE_CORRUPTED', { cause: error });
  }
}

function acroForm(doc: PDFDocument): { form: PDFDict; ownRef: PDFRef | null } {
  const raw = doc.catalog.get(PDFName.of('AcroForm'));
  if (raw instanceof PDFDict) return { form: raw, ownRef: null };
  if (raw) {
    const form = doc.context.lookup(raw, PDFDict);
    return { form, ownRef: raw as PDFRef };
  }
  const form = doc.context.obj({ Fields: [] });
  doc.catalog.set(PDFName.of('AcroForm'), form);
  return { form, ownRef: null };
}

function nextFieldName(form: PDFDict, prefix: string): string {
  const names = new Set<string>();
  const fields = form.lookupMaybe(PDFName.of('Fields'), PDFArray);
  for (let i = 0; i < (fields?.size() ?? 0); i++) {
    const field = fields!.lookupMaybe(i, PDFDict);
    const t = field?.lookupMaybe(PDFName.of('T'), PDFString, PDFHexString);
    if (t) names.add(t.decodeText());
  }
  let n = 1;
  while (names.has(`${prefix}${n}`)) n++;
  return `${prefix}${n}`;
}

/** A revision written with an empty /Contents: what the signature's digest covers, and where its CMS goes. */
export interface Placeholder {
  /** The whole file: the original bytes plus this revision. */
  bytes: Uint8Array;
  byteRange: [number, number, number, number];
  /** Offset of the first hex digit inside /Contents < >. */
  contentsStart: number;
  reserve: number;
  /** SHA-256 of the ByteRange, taken where the placeholder was written (a PDF worker), not on the caller's thread. */
  digest: Uint8Array;
}

/** Locates the (unique) placeholder of this revision and fills in its ByteRange. */
function fixByteRange(original: Uint8Array, appended: Uint8Array, reserve: number): Placeholder {
  const bytes = new Uint8Array(original.length + appended.length);
  bytes.set(original, 0);
  bytes.set(appended, original.length);
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hole = Buffer.from(`<${'0'.repeat(reserve * 2)}>`, 'latin1');
  const holeAt = buffer.indexOf(hole, original.length);
  if (holeAt < 0) throw new Error('signature placeholder not found in the incremental update');
  const placeholder = `[ 0 /${BYTE_RANGE_PLACEHOLDER} /${BYTE_RANGE_PLACEHOLDER} /${BYTE_RANGE_PLACEHOLDER} ]`;
  const rangeAt = buffer.indexOf(placeholder, original.length, 'latin1');
  if (rangeAt < 0) throw new Error('ByteRange placeholder not found in the incremental update');
  const afterHole = holeAt + hole.length;
  const byteRange: Placeholder['byteRange'] = [0, holeAt, afterHole, bytes.length - afterHole];
  const text = `[${byteRange.join(' ')}]`;
  if (text.length > placeholder.length) throw new Error('file too large for the ByteRange placeholder');
  buffer.write(text.padEnd(placeholder.length, ' '), rangeAt, 'latin1');
  const digest = rangeDigest(bytes, byteRange);
  return { bytes, byteRange, contentsStart: holeAt + 1, reserve, digest };
}

function rangeDigest(bytes: Uint8Array, byteRange: Placeholder['byteRange']): Uint8Array {
  const [a, b, c, d] = byteRange;
  const hash = createHash('sha256');
  hash.update(bytes.subarray(a, a + b));
  hash.update(bytes.subarray(c, c + d));
  return new Uint8Array(hash.digest());
}

function fillContents(p: Placeholder, der: Uint8Array): Uint8Array {
  if (der.length > p.reserve) {
    throw new Error(`signature of ${der.length} bytes does not fit the ${p.reserve}-byte reserve`);
  }
  Buffer.from(p.bytes.buffer, p.bytes.byteOffset).write(
    Buffer.from(der).toString('hex').toUpperCase(),
    p.contentsStart,
    'latin1',
  );
  return p.bytes;
}

/** Adds an empty signature field of `type` with its widget on `page`; returns the widget's dict for an appearance. */
function addSignatureField(
  doc: PDFDocument,
  input: {
    type: 'Sig' | 'DocTimeStamp';
    subFilter: string;
    reserve: number;
    page: PDFPage;
    rect: [number, number, number, number];
    name?: string;
    reason?: string;
    location?: string;
    contactInfo?: string;
    claimedTime?: Date;
    fieldPrefix: string;
    /** Make this the certification signature with this permission level. */
    docMdp?: 1 | 2 | 3;
  },
): { widget: PDFDict; saveRefs: PDFRef[] } {
  const { context } = doc;
  const signature = context.obj({
    Type: input.type,
    Filter: 'Adobe.PPKLite',
    SubFilter: input.subFilter,
    ByteRange: [
      0,
      PDFName.of(BYTE_RANGE_PLACEHOLDER),
      PDFName.of(BYTE_RANGE_PLACEHOLDER),
      PDFName.of(BYTE_RANGE_PLACEHOLDER),
    ],
    Contents: PDFHexString.of('0'.repeat(input.reserve * 2)),
  });
  if (input.claimedTime) signature.set(PDFName.of('M'), PDFString.fromDate(input.claimedTime));
  if (input.name) signature.set(PDFName.of('Name'), PDFHexString.fromText(input.name));
  if (input.reason) signature.set(PDFName.of('Reason'), PDFHexString.fromText(input.reason));
  if (input.location) signature.set(PDFName.of('Location'), PDFHexString.fromText(input.location));
  if (input.contactInfo) signature.set(PDFName.of('ContactInfo'), PDFHexString.fromText(input.contactInfo));
  if (input.docMdp) {
    signature.set(
      PDFName.of('Reference'),
      context.obj([
        {
          Type: 'SigRef',
          TransformMethod: 'DocMDP',
          TransformParams: { Type: 'TransformParams', P: input.docMdp, V: PDFName.of('1.2') },
        },
      ]),
    );
  }
  const signatureRef = context.register(signature);

  const { form, ownRef } = acroForm(doc);
  const widget = context.obj({
    Type: 'Annot',
    Subtype: 'Widget',
    FT: 'Sig',
    Rect: input.rect,
    V: signatureRef,
    T: PDFHexString.fromText(nextFieldName(form, input.fieldPrefix)),
    F: 132, // Print | Locked
    P: input.page.ref,
  });
  const widgetRef = context.register(widget);
  const annots = input.page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(widgetRef);
  else input.page.node.set(PDFName.of('Annots'), context.obj([widgetRef]));
  const annotsRef = input.page.node.get(PDFName.of('Annots'));

  let fields = form.lookupMaybe(PDFName.of('Fields'), PDFArray);
  if (!fields) {
    fields = context.obj([]);
    form.set(PDFName.of('Fields'), fields);
  }
  fields.push(widgetRef);
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3)); // SignaturesExist | AppendOnly

  const snapshotRefs = [input.page.ref, doc.context.trailerInfo.Root as PDFRef];
  if (input.docMdp) snapshotRefs.push(...setDocMdp(doc, signatureRef));
  if (ownRef) snapshotRefs.push(ownRef);
  const fieldsRef = form.get(PDFName.of('Fields'));
  if (fieldsRef && !(fieldsRef instanceof PDFArray)) snapshotRefs.push(fieldsRef as PDFRef);
  if (annotsRef && !(annotsRef instanceof PDFArray)) snapshotRefs.push(annotsRef as PDFRef);
  return { widget, saveRefs: snapshotRefs };
}

/** Points the catalog's /Perms /DocMDP at the certification signature; returns an indirect /Perms to save. */
function setDocMdp(doc: PDFDocument, signatureRef: PDFRef): PDFRef[] {
  const raw = doc.catalog.get(PDFName.of('Perms'));
  const perms = raw ? doc.context.lookup(raw) : undefined;
  if (perms instanceof PDFDict) {
    perms.set(PDFName.of('DocMDP'), signatureRef);
    return raw instanceof PDFDict ? [] : [raw as PDFRef];
  }
  doc.catalog.set(PDFName.of('Perms'), doc.context.obj({ DocMDP: signatureRef }));
  return [];
}

/**
 * The certification signature's permission level P (ISO 32000-1 §12.8.2.2; 2 when /P is absent), or null when the
 * catalog names no certification signature.
 */
export function certificationLevel(doc: PDFDocument): 1 | 2 | 3 | null {
  const { context } = doc;
  // pdf-lib's classes have private constructors, so the type is named by its prototype.
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const as = <T>(value: PDFObject | undefined, type: Function & { prototype: T }): T | undefined => {
    const resolved = value instanceof PDFRef ? context.lookup(value) : value;
    return resolved instanceof type ? (resolved as T) : undefined;
  };
  const perms = as(doc.catalog.get(PDFName.of('Perms')), PDFDict);
  const signature = as(perms?.get(PDFName.of('DocMDP')), PDFDict);
  if (!signature) return null;
  const references = as(signature.get(PDFName.of('Reference')), PDFArray);
  for (let i = 0; i < (references?.size() ?? 0); i++) {
    const reference = as(references!.get(i), PDFDict);
    if (as(reference?.get(PDFName.of('TransformMethod')), PDFName)?.decodeText() !== 'DocMDP') continue;
    const p = as(as(reference!.get(PDFName.of('TransformParams')), PDFDict)?.get(PDFName.of('P')), PDFNumber);
    const level = p?.asNumber();
    return level === 1 || level === 3 ? level : 2;
  }
  // /Perms names a certification signature whose DocMDP reference is missing: hold it to the default level.
  return 2;
}

/** Refuses what the certification allows no signer to add (document timestamps and DSS updates stay allowed). */
function checkCertification(doc: PDFDocument, input: SignatureFieldRequest): void {
  const level = certificationLevel(doc);
  if (input.certify && (level !== null || signatureContents(input.pdf).length > 0)) {
    throw new Error('only the first signature of a document can certify it');
  }
  if (level === 1) throw new AppError('DOCUMENT_CERTIFIED_NO_CHANGES');
  // The first appearance is the signature's own widget; the others would be stamp annotations.
  if (level === 2 && (input.appearances?.length ?? 0) > 1) throw new AppError('DOCUMENT_CERTIFIED_NO_ANNOTATIONS');
}

/** Writes the revision: the new objects and `saveRefs`, the changed ones (page, catalog, form and their arrays). */
async function saveRevision(
  doc: PDFDocument,
  snapshot: ReturnType<PDFDocument['takeSnapshot']>,
  saveRefs: readonly PDFRef[],
): Promise<Uint8Array> {
  for (const ref of saveRefs) snapshot.markRefForSave(ref);
  // Classic cross-reference sections keep each object where a signature's placeholder can be found and filled.
  return doc.saveIncremental(snapshot, { useObjectStreams: false });
}

function pageOf(doc: PDFDocument, page: number): PDFPage {
  const pages = doc.getPages();
  const found = pages[page - 1];
  if (!found) throw new AppError('SIGNING_PAGE_NOT_FOUND', { params: { page, pages: pages.length } });
  return found;
}

/** The PDF side of a new signature: plain data (no key, no services), so it can be handed to a PDF worker. */
export interface SignatureFieldRequest {
  pdf: Uint8Array;
  signerName: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  claimedTime: Date;
  appearances: Appearance[];
  certify?: 1 | 2 | 3;
}

/**
 * Loads the document, checks its certification allows the signature, adds the signature field and the visible
 * elements, and writes the revision with an empty /Contents and its ByteRange filled in (runs in a PDF worker).
 */
export async function prepareSignature(request: SignatureFieldRequest): Promise<Placeholder> {
  const doc = await loadIncremental(request.pdf);
  checkCertification(doc, request);
  const snapshot = doc.takeSnapshot();
  const appearances = request.appearances;
  const first = appearances[0];
  const resources = await prepareAppearanceResources(doc, appearances);
  const widgetPage = pageOf(doc, first?.page ?? 1);
  const { widget, saveRefs } = addSignatureField(doc, {
    type: 'Sig',
    subFilter: 'ETSI.CAdES.detached',
    reserve: SIGNATURE_RESERVE,
    page: widgetPage,
    rect: first?.rect ?? [0, 0, 0, 0],
    name: request.signerName,
    reason: request.reason,
    location: request.location,
    contactInfo: request.contactInfo,
    claimedTime: request.claimedTime,
    fieldPrefix: 'Signature',
    docMdp: request.certify,
  });
  for (const [i, appearance] of appearances.entries()) {
    drawAppearance(doc, resources.font, resources.images[i] ?? null, appearance, i === 0 ? widget : null, (page) => {
      const target = pageOf(doc, page);
      const annots = target.node.get(PDFName.of('Annots'));
      saveRefs.push(target.ref, ...(annots && !(annots instanceof PDFArray) ? [annots as PDFRef] : []));
      return target;
    });
  }
  const appended = await saveRevision(doc, snapshot, saveRefs);
  return fixByteRange(request.pdf, appended, SIGNATURE_RESERVE);
}

/** Loads the document and writes a document timestamp's field with an empty /Contents (runs in a PDF worker). */
export async function prepareDocumentTimestamp(pdf: Uint8Array): Promise<Placeholder> {
  const doc = await loadIncremental(pdf);
  const snapshot = doc.takeSnapshot();
  const { saveRefs } = addSignatureField(doc, {
    type: 'DocTimeStamp',
    subFilter: 'ETSI.RFC3161',
    reserve: TIMESTAMP_RESERVE,
    page: pageOf(doc, 1),
    rect: [0, 0, 0, 0],
    fieldPrefix: 'DocumentTimestamp',
  });
  return fixByteRange(pdf, await saveRevision(doc, snapshot, saveRefs), TIMESTAMP_RESERVE);
}

/**
 * The bytes in shared memory for a PDF worker: one copy here, where posting a plain array to a worker serialises
 * it and copies it again on the other side (for 30 MB, ~20 ms of this thread's time against ~5 ms). The worker
 * only reads them; the caller keeps its own array.
 */
function sharedCopy(pdf: Uint8Array): Uint8Array {
  const shared = new Uint8Array(new SharedArrayBuffer(pdf.byteLength));
  shared.set(pdf);
  return shared;
}

/**
 * Signs `input.pdf` at `input.level`; every step is an incremental update of the previous bytes. The PDF work runs
 * in `work` (the service's PDF worker pool) when given, otherwise on this thread.
 */
export async function signPdf(input: SignPdfInput, work?: PdfWorkPool): Promise<SignPdfResult> {
  const started = performance.now();
  if (atLeast(input.level, 'B-T') && !input.tsa) throw new Error(`${input.level} needs a TSA`);
  if (atLeast(input.level, 'B-LT') && !input.revocation) throw new Error(`${input.level} needs a revocation source`);
  const request: SignatureFieldRequest = {
    pdf: input.pdf,
    signerName: input.signerName,
    reason: input.reason,
    location: input.location,
    contactInfo: input.contactInfo,
    claimedTime: input.claimedTime,
    appearances: input.appearances ?? [],
    certify: input.certify,
  };
  const placeholder = work
    ? await work.run('prepareSignature', { ...request, pdf: sharedCopy(input.pdf) })
    : await prepareSignature(request);
  const { der, signatureValue } = await buildSignedData({
    key: input.key,
    contentType: '1.2.840.113549.1.7.1',
    digest: placeholder.digest,
  });
  let cms = der;
  let timestampTime: Date | null = null;
  if (atLeast(input.level, 'B-T')) {
    const token = await input.tsa!.timestamp(sha256(signatureValue));
    cms = addSignatureTimestamp(der, token.der);
    timestampTime = token.genTime;
  }
  let pdf = fillContents(placeholder, cms);
  let documentTimestampNotAfter: Date | null = null;
  if (atLeast(input.level, 'B-LT')) {
    pdf = await addValidationData(pdf, input.revocation!, work);
  }
  if (input.level === 'B-LTA') {
    const stamped = await addDocumentTimestamp(pdf, input.tsa!, work);
    pdf = stamped.pdf;
    documentTimestampNotAfter = stamped.notAfter;
  }
  work?.onSigned?.(input.level, (performance.now() - started) / 1000);
  return { pdf, level: input.level, timestampTime, documentTimestampNotAfter };
}

/**
 * Adds a document timestamp (SubFilter ETSI.RFC3161) covering the whole file as it stands; the PDF work runs in
 * `work` when given.
 */
export async function addDocumentTimestamp(
  pdf: Uint8Array,
  tsa: TimestampAuthority,
  work?: PdfWorkPool,
): Promise<{ pdf: Uint8Array; genTime: Date; notAfter: Date }> {
  const placeholder = work ? await work.run('prepareDocumentTimestamp', { pdf }) : await prepareDocumentTimestamp(pdf);
  const token = await tsa.timestamp(placeholder.digest);
  return {
    pdf: fillContents(placeholder, token.der),
    genTime: token.genTime,
    notAfter: tokenCertificateNotAfter(token),
  };
}

/**
 * Renews a long-term document: fresh validation data for everything so far (including the last document
 * timestamp's chain), then a new document timestamp (ETSI EN 319 142-1 §5.5, the B-LTA renewal).
 */
export async function extendToLta(
  pdf: Uint8Array,
  tsa: TimestampAuthority,
  revocation: RevocationSource,
  work?: PdfWorkPool,
): Promise<{ pdf: Uint8Array; genTime: Date; notAfter: Date }> {
  const withData = await addValidationData(pdf, revocation, work);
  return addDocumentTimestamp(withData, tsa, work);
}
