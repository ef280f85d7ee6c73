/*
 * Signatures found through the PDF's object model: the signature fields (/FT /Sig with a /V) of the AcroForm of
 * every revision, so a signature a later revision removed or redefined is still found, and a signature whose bytes
 * were tampered with is reported rather than skipped. Each distinct signature (its ByteRange and /Contents) is
 * reported once. Its ByteRange is then checked against the file: it starts at 0, its gap is exactly this signature's
 * /Contents string inside its own dictionary's object, and it ends where a revision ends.
 */
import { createHash } from 'node:crypto';
import {
  type PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';
import type { PdfFile, RevisionState } from './pdf-revisions.ts';

type ByteRange = [number, number, number, number];

/** A signature dictionary as found in a revision's form. */
export interface FoundSignature {
  fieldName: string | null;
  /** Type /Sig or /DocTimeStamp (or what the dictionary says), SubFilter and the decrypted text entries. */
  type: string | null;
  subFilter: string | null;
  name: string | null;
  reason: string | null;
  claimedTime: string | null;
  /** The raw /ByteRange, when it is an array of four integers. */
  byteRange: ByteRange | null;
  /** The /Contents string's bytes as stored (zero padding included); null when missing. */
  contents: Uint8Array | null;
  /** DocMDP permission level when the dictionary carries a DocMDP transform (a certification signature). */
  docMdp: 1 | 2 | 3 | null;
  /** The object holding the dictionary ("12 0 R") and its byte span, for the gap check. */
  objectRef: string | null;
  span: [number, number] | null;
  /** Revisions (their end offsets) whose form lists this signature. */
  seenIn: number[];
  /** How many signature fields pointed at an identical signature (same ByteRange and /Contents). */
  copies: number;
}

/** The cap on fields walked per revision: a form with more is read up to it. */
const FIELD_BUDGET = 20_000;

/** /Contents bytes and their hash per parsed string: 5,000 fields may share one 48 KB hex string. */
const contentsCache = new WeakMap<PDFObject, { bytes: Uint8Array; hash: string }>();
function contentsOf(value: PDFObject | undefined): { bytes: Uint8Array; hash: string } | null {
  if (!(value instanceof PDFHexString || value instanceof PDFString)) return null;
  let cached = contentsCache.get(value);
  if (!cached) {
    const bytes =
      value instanceof PDFHexString ? Buffer.from(value.asString().replace(/\s+/g, ''), 'hex') : value.asBytes();
    cached = { bytes: new Uint8Array(bytes), hash: createHash('sha256').update(bytes).digest('hex') };
    contentsCache.set(value, cached);
  }
  return cached;
}

const text = (value: PDFObject | undefined): string | null =>
  value instanceof PDFString || value instanceof PDFHexString ? value.decodeText() : null;

function dateText(value: PDFObject | undefined): string | null {
  if (!(value instanceof PDFString)) return null;
  try {
    return value.decodeDate().toISOString();
  } catch {
    return null;
  }
}

function integers(array: PDFArray | undefined): ByteRange | null {
  if (!array || array.size() !== 4) return null;
  const values = array.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : NaN));
  return values.every((v) => Number.isSafeInteger(v) && v >= 0) ? (values as ByteRange) : null;
}

/** The DocMDP level of a signature dictionary's /Reference, when it has one (P defaults to 2). */
function docMdpLevel(state: RevisionState, dict: PDFDict): 1 | 2 | 3 | null {
  const references = state.array(dict.get(PDFName.of('Reference')));
  for (const item of references?.asArray() ?? []) {
    const reference = state.dict(item);
    if (state.get(reference, 'TransformMethod') !== PDFName.of('DocMDP')) continue;
    const p = state.get(state.dict(reference?.get(PDFName.of('TransformParams'))), 'P');
    const level = p instanceof PDFNumber ? p.asNumber() : 2;
    return level === 1 || level === 3 ? level : 2;
  }
  return null;
}

/** The signature fields of one revision's AcroForm, with their /V dictionaries. */
function formSignatures(state: RevisionState): { fieldName: string | null; value: PDFObject }[] {
  const form = state.dict(state.root()?.get(PDFName.of('AcroForm')));
  const found: { fieldName: string | null; value: PDFObject }[] = [];
  const seen = new Set<string>();
  let walked = 0;
  const walk = (node: PDFObject | undefined, parentName: string | null, inheritedType: PDFObject | undefined) => {
    if (walked++ > FIELD_BUDGET) return;
    if (node instanceof PDFRef) {
      if (seen.has(node.toString())) return;
      seen.add(node.toString());
    }
    const field = state.dict(node);
    if (!field) return;
    const partial = text(state.get(field, 'T'));
    const fieldName = partial === null ? parentName : parentName ? `${parentName}.${partial}` : partial;
    const type = field.get(PDFName.of('FT')) ?? inheritedType;
    const value = field.get(PDFName.of('V'));
    if (state.resolve(type) === PDFName.of('Sig') && value) found.push({ fieldName, value });
    for (const kid of state.array(field.get(PDFName.of('Kids')))?.asArray() ?? []) walk(kid, fieldName, type);
  };
  for (const field of state.array(form?.get(PDFName.of('Fields')))?.asArray() ?? []) walk(field, null, undefined);
  return found;
}

/** Every distinct signature of every revision, in the order their ByteRanges end (then first seen). */
export function findSignatures(file: PdfFile, revisionEnds: readonly number[]): FoundSignature[] {
  const byKey = new Map<string, FoundSignature>();
  for (const end of revisionEnds) {
    const state = file.state(end);
    if (!state) continue;
    const perRevision = new Set<string>();
    for (const { fieldName, value } of formSignatures(state)) {
      const dict = state.dict(value);
      if (!dict) continue;
      const raw = value instanceof PDFRef ? state.object(value, true) : null;
      const rawDict = raw?.value instanceof PDFDict ? raw.value : dict;
      // /Contents must be a direct string (its bytes are the ByteRange gap); an indirect one is read, and fails the gap check.
      let contentsValue = rawDict.get(PDFName.of('Contents'));
      if (contentsValue instanceof PDFRef) contentsValue = state.object(contentsValue, true)?.value;
      const read = contentsOf(contentsValue);
      const contents = read?.bytes ?? null;
      const byteRange = integers(state.array(dict.get(PDFName.of('ByteRange'))));
      const key = `${byteRange?.join(' ') ?? 'none'}|${read?.hash ?? 'none'}|${
        byteRange || contents ? '' : (fieldName ?? '')
      }`;
      const existing = byKey.get(key);
      if (existing) {
        if (!existing.seenIn.includes(end)) existing.seenIn.push(end);
        if (perRevision.has(key)) existing.copies += 1;
        perRevision.add(key);
        continue;
      }
      perRevision.add(key);
      const holder = value instanceof PDFRef ? state.object(value) : null;
      byKey.set(key, {
        fieldName,
        type:
          state
            .resolve(dict.get(PDFName.of('Type')))
            ?.toString()
            .replace(/^\//, '') ?? null,
        subFilter:
          state
            .resolve(dict.get(PDFName.of('SubFilter')))
            ?.toString()
            .replace(/^\//, '') ?? null,
        name: text(state.get(dict, 'Name')),
        reason: text(state.get(dict, 'Reason')),
        claimedTime: dateText(state.get(dict, 'M')),
        byteRange,
        contents,
        docMdp: docMdpLevel(state, dict),
        objectRef: value instanceof PDFRef ? value.toString() : null,
        span: holder?.span ?? null,
        seenIn: [end],
        copies: 1,
      });
    }
  }
  return [...byKey.values()].sort(
    (a, b) =>
      (a.byteRange ? a.byteRange[2] + a.byteRange[3] : Infinity) -
        (b.byteRange ? b.byteRange[2] + b.byteRange[3] : Infinity) || a.seenIn[0]! - b.seenIn[0]!,
  );
}

/** What is wrong with a signature's ByteRange against the file (empty when nothing is). */
export function byteRangeProblems(
  file: PdfFile,
  signature: FoundSignature,
  revisionEnds: readonly number[],
): { problems: string[]; revision: number | null } {
  const range = signature.byteRange;
  if (!range) return { problems: ['byte-range-invalid'], revision: null };
  const [a, b, c, d] = range;
  const problems: string[] = [];
  if (a !== 0 || b <= 0 || c <= b || c + d > file.bytes.length)
    return { problems: ['byte-range-invalid'], revision: null };
  // The gap must be this signature's own /Contents hex string, inside its own object: anything else there is
  // content no signature covers (a gap injection), or a ByteRange borrowed by another dictionary.
  const gap = file.text.slice(b, c);
  const hex = /^<([0-9A-Fa-f\s]*)>$/.exec(gap)?.[1]?.replace(/\s+/g, '');
  const gapBytes = hex !== undefined && hex.length % 2 === 0 ? Buffer.from(hex, 'hex') : null;
  const inside = !signature.span || (b > signature.span[0] && c < signature.span[1]);
  if (!gapBytes || !signature.contents || !gapBytes.equals(Buffer.from(signature.contents)) || !inside) {
    problems.push('byte-range-gap-invalid');
  }
  const end = c + d;
  const index = revisionEnds.findIndex((e) => e === end || (e > end && /^[\r\n]+$/.test(file.text.slice(end, e))));
  if (index < 0) problems.push('byte-range-not-revision-end');
  return { problems, revision: index < 0 ? null : index + 1 };
}
