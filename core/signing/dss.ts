/*
 * The Document Security Store (ISO 32000-2 §12.8.4.3) written as one more incremental update. Whatever shape the
 * existing DSS has (direct or indirect dictionary, arrays and VRI), the update writes a new DSS dictionary whose
 * direct arrays keep every existing stream and add streams only for data not already there (same SHA-256 of the
 * decoded bytes), so repeated renewals do not pile up copies. Each signature and document timestamp without a VRI
 * entry gets one, keyed by the upper-case hex SHA-1 of its /Contents string as stored (§12.8.4.4), holding its own
 * chains' certificates, CRLs and OCSP responses.
 * Reading the signatures and writing the update are PDF work (signedItems, writeValidationData): they run in the PDF
 * worker pool when one is given; gathering the revocation data (network) stays on the calling thread.
 */
import { createHash } from 'node:crypto';
import {
  decodePDFRawStream,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  type PDFContext,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';
import * as pkijs from 'pkijs';
import { checkPdfBudget } from '../files/pdf-scan.ts';
import { AppError } from '../http/errors.ts';
import type { PdfWorkPool } from '../pdf-work/pool.ts';
import { arrayBuffer, sha256 } from './cms.ts';
import { collectChains } from './verify.ts';
import type { RevocationSource, ValidationData } from './types.ts';

type StreamKind = 'Certs' | 'CRLs' | 'OCSPs';
const KINDS: StreamKind[] = ['Certs', 'CRLs', 'OCSPs'];
const VRI_NAME: Record<StreamKind, string> = { Certs: 'Cert', CRLs: 'CRL', OCSPs: 'OCSP' };

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The streams of one DSS array: the refs in order and, by SHA-256 of the decoded bytes, the first ref holding each. */
interface StreamPool {
  refs: PDFRef[];
  byHash: Map<string, PDFRef>;
}

function resolve(context: PDFContext, value: PDFObject | undefined): PDFObject | undefined {
  return value instanceof PDFRef ? context.lookup(value) : value;
}

function existingPool(context: PDFContext, dss: PDFDict | null, kind: StreamKind): StreamPool {
  const pool: StreamPool = { refs: [], byHash: new Map() };
  const array = dss && resolve(context, dss.get(PDFName.of(kind)));
  if (!(array instanceof PDFArray)) return pool;
  for (let i = 0; i < array.size(); i++) {
    const item = array.get(i);
    // Streams are always indirect (ISO 32000-1 §7.3.8); anything else in the array is not ours to interpret.
    if (!(item instanceof PDFRef) || pool.refs.includes(item)) continue;
    pool.refs.push(item);
    const stream = context.lookup(item);
    if (!(stream instanceof PDFRawStream)) continue;
    try {
      const key = hex(sha256(decodePDFRawStream(stream).decode()));
      if (!pool.byHash.has(key)) pool.byHash.set(key, item);
    } catch {
      // An undecodable stream stays linked as it was; new data is simply not matched against it.
    }
  }
  return pool;
}

/** The ref of a stream holding `bytes`: an existing one, or a new stream added to the pool. */
function streamFor(context: PDFContext, pool: StreamPool, bytes: Uint8Array): PDFRef {
  const key = hex(sha256(bytes));
  let ref = pool.byHash.get(key);
  if (!ref) {
    ref = context.register(context.flateStream(bytes));
    pool.refs.push(ref);
    pool.byHash.set(key, ref);
  }
  return ref;
}

/** Issuer names and serial numbers of a chain's certificates that have an issuer (roots are never revoked). */
function revocable(chains: readonly (readonly Uint8Array[])[]): pkijs.Certificate[] {
  return chains
    .flat()
    .map((der) => pkijs.Certificate.fromBER(arrayBuffer(der)))
    .filter((c) => !c.issuer.isEqual(c.subject));
}

/** Whether a CRL (DER) is one of `certificates`' issuers' CRLs. */
function crlConcerns(crl: Uint8Array, certificates: readonly pkijs.Certificate[]): boolean {
  try {
    const parsed = pkijs.CertificateRevocationList.fromBER(arrayBuffer(crl));
    return certificates.some((c) => c.issuer.isEqual(parsed.issuer));
  } catch {
    return false;
  }
}

const HASH_OF_OID: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/** Whether an OCSPResponse (or a bare BasicOCSPResponse) answers for one of `certificates` (RFC 6960 CertID). */
function ocspConcerns(response: Uint8Array, certificates: readonly pkijs.Certificate[]): boolean {
  try {
    let basic: pkijs.BasicOCSPResponse;
    try {
      const outer = pkijs.OCSPResponse.fromBER(arrayBuffer(response));
      if (!outer.responseBytes) return false;
      basic = pkijs.BasicOCSPResponse.fromBER(
        arrayBuffer(new Uint8Array(outer.responseBytes.response.valueBlock.valueHexView)),
      );
    } catch {
      basic = pkijs.BasicOCSPResponse.fromBER(arrayBuffer(response));
    }
    return basic.tbsResponseData.responses.some(({ certID }) => {
      const hash = HASH_OF_OID[certID.hashAlgorithm.algorithmId];
      if (!hash) return false;
      const nameHash = Buffer.from(certID.issuerNameHash.valueBlock.valueHexView);
      return certificates.some(
        (c) =>
          c.serialNumber.isEqual(certID.serialNumber) &&
          createHash(hash)
            .update(Buffer.from(c.issuer.toSchema().toBER(false)))
            .digest()
            .equals(nameHash),
      );
    });
  } catch {
    return false;
  }
}

/** One signature or document timestamp: its VRI key and the chains it needs. */
export interface SignedItem {
  vriKey: string;
  chains: Uint8Array[][];
}

/** Every signature and document timestamp of `pdf` with its VRI key and chains (runs in a PDF worker). */
export function signedItems(pdf: Uint8Array): SignedItem[] {
  // The VRI key hashes the whole /Contents string as stored, zero padding included (ISO 32000-2 §12.8.4.4).
  return collectChains(pdf).map(({ contents, chains }) => ({
    vriKey: createHash('sha1').update(contents).digest('hex').toUpperCase(),
    chains,
  }));
}

async function loadIncremental(pdf: Uint8Array): Promise<PDFDocument> {
  checkPdfBudget(pdf);
  try {
    return await PDFDocument.load(pdf, { forIncrementalUpdate: true, updateMetadata: false });
  } catch (error) {
    throw new AppError('FILE_CORRUPTED', { cause: error });
  }
}

/**
 * B-LT: merges into the document's DSS every certificate, CRL and OCSP response the signatures' and timestamps'
 * chains need and a VRI entry for each signature that has none, as one more incremental update. The PDF work runs
 * in `work` when given.
 */
export async function addValidationData(
  pdf: Uint8Array,
  revocation: RevocationSource,
  work?: PdfWorkPool,
): Promise<Uint8Array> {
  const items = work ? await work.run('signedItems', { pdf }) : signedItems(pdf);
  const data = await revocation.collect(items.flatMap((s) => s.chains));
  return work ? work.run('writeValidationData', { pdf, items, data }) : writeValidationData(pdf, items, data);
}

/** Writes the DSS update of `items` with `data` (runs in a PDF worker). */
export async function writeValidationData(
  pdf: Uint8Array,
  items: readonly SignedItem[],
  data: ValidationData,
): Promise<Uint8Array> {
  const doc = await loadIncremental(pdf);
  const snapshot = doc.takeSnapshot();
  const { context } = doc;
  const old = resolve(context, doc.catalog.get(PDFName.of('DSS')));
  const oldDss = old instanceof PDFDict ? old : null;
  const pools = Object.fromEntries(KINDS.map((kind) => [kind, existingPool(context, oldDss, kind)])) as Record<
    StreamKind,
    StreamPool
  >;
  for (const der of data.certificates) streamFor(context, pools.Certs, der);
  const crlRefs = data.crls.map((crl) => ({ crl, ref: streamFor(context, pools.CRLs, crl) }));
  const ocspRefs = data.ocspResponses.map((ocsp) => ({ ocsp, ref: streamFor(context, pools.OCSPs, ocsp) }));

  const vri = context.obj({});
  const oldVri = oldDss ? resolve(context, oldDss.get(PDFName.of('VRI'))) : undefined;
  if (oldVri instanceof PDFDict) for (const [key, value] of oldVri.entries()) vri.set(key, value);
  const now = PDFString.fromDate(new Date());
  for (const item of items) {
    if (vri.has(PDFName.of(item.vriKey))) continue;
    const issued = revocable(item.chains);
    const entry: Record<StreamKind, PDFRef[]> = {
      Certs: dedupe(item.chains.flat().map((der) => streamFor(context, pools.Certs, der))),
      CRLs: crlRefs.filter(({ crl }) => crlConcerns(crl, issued)).map(({ ref }) => ref),
      OCSPs: ocspRefs.filter(({ ocsp }) => ocspConcerns(ocsp, issued)).map(({ ref }) => ref),
    };
    const dict = context.obj({});
    for (const kind of KINDS)
      if (entry[kind].length > 0) dict.set(PDFName.of(VRI_NAME[kind]), context.obj(entry[kind]));
    dict.set(PDFName.of('TU'), now);
    vri.set(PDFName.of(item.vriKey), dict);
  }

  // A new dictionary rather than edits in place: the old one may be shared, indirect or hold indirect arrays, and
  // only a new object plus the catalog pointing at it is sure to be written and reachable.
  const dss = context.obj({});
  if (oldDss) {
    for (const [key, value] of oldDss.entries()) {
      if (!KINDS.includes(key.decodeText() as StreamKind) && key.decodeText() !== 'VRI') dss.set(key, value);
    }
  }
  for (const kind of KINDS) if (pools[kind].refs.length > 0) dss.set(PDFName.of(kind), context.obj(pools[kind].refs));
  if (vri.keys().length > 0) dss.set(PDFName.of('VRI'), vri);
  doc.catalog.set(PDFName.of('DSS'), context.register(dss));
  snapshot.markRefForSave(context.trailerInfo.Root as PDFRef);
  const appended = await doc.saveIncremental(snapshot, { useObjectStreams: false });
  const out = new Uint8Array(pdf.length + appended.length);
  out.set(pdf, 0);
  out.set(appended, pdf.length);
  return out;
}

function dedupe(refs: PDFRef[]): PDFRef[] {
  return [...new Set(refs)];
}
