/*
 * A PDF read as a viewer reads it: through its cross-reference sections, revision by revision. Each revision ends
 * at a `startxref … %%EOF` and its state is what that xref chain (table or stream, /Prev and /XRefStm followed)
 * points at. pdf-lib's own loader parses the body in file order and lets the last definition win, whatever the xref
 * says; a verifier that reads a file differently from a viewer can be shown one document while the viewer shows
 * another, so objects here are found only through the xref of the revision asked about.
 * Untrusted input: every count is budgeted, and nothing is decoded that is not asked for.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  decodePDFRawStream,
  PDFArray,
  PDFContext,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFObjectParser,
  PDFRawStream,
  PDFRef,
  PDFString,
} from '@cantoo/pdf-lib';

type Entry =
  | { kind: 'offset'; offset: number; generation: number }
  | { kind: 'compressed'; stream: number; index: number }
  | { kind: 'free' };

interface XrefSection {
  entries: Map<number, Entry>;
  trailer: PDFDict;
  prev: number | null;
  xrefStm: number | null;
}

/** Limits for a file we did not make. */
export const READ_BUDGET = {
  revisions: 500,
  sectionsPerChain: 1000,
  objects: 500_000,
  xrefEntries: 2_000_000,
};

/** Raised when a budget is spent: the file is too complex to read within the limits. */
export class BudgetExceededError extends Error {}

/** Inflated bytes one file may decode in all (xref and object streams, DSS data). */
export const INFLATE_BUDGET = 256 * 1024 * 1024;

/** Reverses the PNG predictors (ISO 32000 §7.4.4.4) pdf-lib's decoder leaves in place, e.g. in xref streams. */
function unpredict(data: Uint8Array, params: PDFDict | undefined): Uint8Array {
  const predictor = numberOf(params?.get(PDFName.of('Predictor'))) ?? 1;
  if (predictor < 10) {
    if (predictor === 1) return data;
    throw new Error(`unsupported predictor ${predictor}`);
  }
  const colors = numberOf(params?.get(PDFName.of('Colors'))) ?? 1;
  const bits = numberOf(params?.get(PDFName.of('BitsPerComponent'))) ?? 8;
  const columns = numberOf(params?.get(PDFName.of('Columns'))) ?? 1;
  const pixel = Math.max(1, Math.ceil((colors * bits) / 8));
  const row = Math.ceil((colors * bits * columns) / 8);
  const rows = Math.floor(data.length / (row + 1));
  const out = new Uint8Array(rows * row);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (row + 1)]!;
    const input = data.subarray(r * (row + 1) + 1, (r + 1) * (row + 1));
    const at = r * row;
    for (let i = 0; i < row; i++) {
      const left = i >= pixel ? out[at + i - pixel]! : 0;
      const up = r > 0 ? out[at - row + i]! : 0;
      const upLeft = r > 0 && i >= pixel ? out[at - row + i - pixel]! : 0;
      let value = input[i]!;
      if (type === 1) value += left;
      else if (type === 2) value += up;
      else if (type === 3) value += (left + up) >> 1;
      else if (type === 4) {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        value += pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      }
      out[at + i] = value & 0xff;
    }
  }
  return out;
}

/** One parsed indirect object: its value and where its bytes are (for a signature's gap check). */
export interface IndirectObject {
  value: PDFObject;
  /** Byte span of `n g obj … endobj` in the file; null for an object inside an object stream. */
  span: [number, number] | null;
}

type ByteStream = ConstructorParameters<typeof PDFObjectParser>[0];

type CipherFactory = {
  createCipherTransform(num: number, gen: number): { decryptBytes(bytes: Uint8Array): Uint8Array };
};

/** pdf-lib's decryption (ported from pdf.js) is not exported; it is loaded from the same ES build pdf-lib uses. */
async function cipherFactory(encrypt: PDFDict, fileId: Uint8Array): Promise<CipherFactory> {
  const main = createRequire(import.meta.url).resolve('@cantoo/pdf-lib');
  const file = path.join(path.dirname(main), '..', 'es', 'core', 'crypto.js');
  const { CipherTransformFactory } = (await import(pathToFileURL(file).href)) as {
    CipherTransformFactory: new (dict: PDFDict, id: Uint8Array, password?: string) => CipherFactory;
  };
  return new CipherTransformFactory(encrypt, fileId); // throws when the empty user password does not open it
}

/** A parser reading one object at a time, reporting where it ended. */
class ObjectReader extends PDFObjectParser {
  static at(bytes: Uint8Array, context: PDFContext, crypto?: CipherFactory): ObjectReader {
    // pdf-lib does not export ByteStream; a throw-away parser makes one.
    const stream = (PDFObjectParser.forBytes(bytes, context) as unknown as { bytes: ByteStream }).bytes;
    return new ObjectReader(stream, context, false, crypto as ConstructorParameters<typeof PDFObjectParser>[3]);
  }

  offset(): number {
    return this.bytes.offset();
  }

  skip(): void {
    this.skipWhitespaceAndComments();
  }

  keyword(word: string): boolean {
    return this.matchKeyword([...word].map((c) => c.charCodeAt(0)));
  }

  int(): number {
    return this.parseRawInt();
  }
}

const latin1 = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** The file, with a parse cache shared by every revision. */
export class PdfFile {
  readonly text: string;
  readonly context = PDFContext.create();
  private readonly sections = new Map<number, XrefSection | null>();
  private readonly objects = new Map<string, IndirectObject | null>();
  private readonly objectStreams = new Map<
    number,
    { numbers: number[]; offsets: number[]; body: Uint8Array; first: number } | null
  >();
  private readonly states = new Map<number, RevisionState | null>();
  private parsed = 0;
  private crypto: CipherFactory | null = null;
  private inflated = 0;
  encrypted = false;

  constructor(readonly bytes: Uint8Array) {
    this.text = latin1(bytes);
  }

  /** Opens the file: the latest revision must be readable; an encrypted file must open with the empty password. */
  static async open(bytes: Uint8Array): Promise<PdfFile> {
    const file = new PdfFile(bytes);
    const latest = file.state(bytes.length);
    if (!latest) throw new Error('no readable cross-reference section');
    const encrypt = latest.trailer.get(PDFName.of('Encrypt'));
    if (encrypt) {
      file.encrypted = true;
      const dict = latest.resolve(encrypt);
      const ids = latest.trailer.lookupMaybe(PDFName.of('ID'), PDFArray);
      const id = ids?.get(0);
      if (!(dict instanceof PDFDict) || !(id instanceof PDFHexString || id instanceof PDFString)) {
        throw new Error('encryption dictionary or file ID missing');
      }
      file.crypto = await cipherFactory(dict, id.asBytes());
      file.objects.clear(); // objects read before the key was known held encrypted strings
      file.objectStreams.clear();
    }
    return file;
  }

  /**
   * Every revision end: the byte after each `startxref n %%EOF` (and its end-of-line), oldest first, where the xref
   * chain it names is readable.
   */
  revisionEnds(): number[] {
    const ends: number[] = [];
    const pattern = /startxref\s+\d+\s*%%EOF(\r\n|\r|\n)?/g;
    for (let match = pattern.exec(this.text); match; match = pattern.exec(this.text)) {
      if (ends.length >= READ_BUDGET.revisions) throw new BudgetExceededError('too many revisions');
      const end = match.index + match[0].length;
      if (this.state(end)) ends.push(end);
    }
    return ends;
  }

  /** The document as a viewer reading the first `end` bytes sees it; null when that prefix has no readable xref. */
  state(end: number): RevisionState | null {
    if (this.states.has(end)) return this.states.get(end)!;
    let state: RevisionState | null = null;
    const at = this.text.lastIndexOf('startxref', end);
    const offset = at < 0 ? NaN : Number(/^startxref\s+(\d+)/.exec(this.text.slice(at, at + 40))?.[1]);
    if (Number.isFinite(offset) && offset < end) {
      const chain: XrefSection[] = [];
      const seen = new Set<number>();
      let next: number | null = offset;
      while (next !== null && !seen.has(next) && next < end) {
        if (chain.length >= READ_BUDGET.sectionsPerChain) throw new BudgetExceededError('xref chain too long');
        seen.add(next);
        const section = this.section(next);
        if (!section) break;
        chain.push(section);
        if (section.xrefStm !== null && section.xrefStm < end) {
          const hidden = this.section(section.xrefStm);
          if (hidden) chain.push({ ...hidden, trailer: section.trailer, prev: null });
        }
        next = section.prev;
      }
      if (chain.length > 0) state = new RevisionState(this, end, chain);
    }
    this.states.set(end, state);
    return state;
  }

  private section(offset: number): XrefSection | null {
    if (this.sections.has(offset)) return this.sections.get(offset)!;
    let section: XrefSection | null;
    try {
      // Some writers get the offset a few bytes wrong; viewers look nearby, and so does this reader.
      const table = this.text.startsWith('xref', offset) ? offset : nearby(this.text, /xref\s/g, offset);
      section = table !== null ? this.xrefTable(table) : this.xrefStream(offset);
    } catch (error) {
      if (error instanceof BudgetExceededError) throw error;
      section = null;
    }
    this.sections.set(offset, section);
    return section;
  }

  private xrefTable(offset: number): XrefSection {
    const entries = new Map<number, Entry>();
    const trailerAt = this.text.indexOf('trailer', offset);
    if (trailerAt < 0) throw new Error('xref table without trailer');
    const body = this.text.slice(offset + 4, trailerAt);
    const tokens = body.trim().split(/\s+/);
    let i = 0;
    while (i + 1 < tokens.length) {
      const start = Number(tokens[i]);
      const count = Number(tokens[i + 1]);
      if (!Number.isInteger(start) || !Number.isInteger(count) || count < 0) throw new Error('bad xref subsection');
      i += 2;
      for (let n = 0; n < count; n++, i += 3) {
        if (entries.size >= READ_BUDGET.xrefEntries) throw new BudgetExceededError('too many xref entries');
        const [offsetText, generation, type] = [tokens[i], tokens[i + 1], tokens[i + 2]];
        if (type !== 'n' && type !== 'f') throw new Error('bad xref entry');
        if (!entries.has(start + n)) {
          entries.set(
            start + n,
            type === 'n'
              ? { kind: 'offset', offset: Number(offsetText), generation: Number(generation) }
              : { kind: 'free' },
          );
        }
      }
    }
    const reader = ObjectReader.at(this.bytes.subarray(trailerAt + 7), this.context);
    reader.skip();
    const trailer = reader.parseObject();
    if (!(trailer instanceof PDFDict)) throw new Error('trailer is not a dictionary');
    return {
      entries,
      trailer,
      prev: numberOf(trailer.get(PDFName.of('Prev'))),
      xrefStm: numberOf(trailer.get(PDFName.of('XRefStm'))),
    };
  }

  private xrefStream(offset: number): XrefSection {
    const object = this.parseAt(offset, null);
    const stream = object?.value;
    if (!(stream instanceof PDFRawStream) || stream.dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) {
      throw new Error('not an xref stream');
    }
    const { dict } = stream;
    const widths = (dict.lookupMaybe(PDFName.of('W'), PDFArray)?.asArray() ?? []).map((w) => numberOf(w) ?? 0);
    if (widths.length !== 3 || widths.some((w) => w < 0 || w > 8)) throw new Error('bad /W');
    const size = numberOf(dict.get(PDFName.of('Size'))) ?? 0;
    const index = (
      dict.lookupMaybe(PDFName.of('Index'), PDFArray)?.asArray() ?? [PDFNumber.of(0), PDFNumber.of(size)]
    ).map((n) => numberOf(n) ?? 0);
    const data = this.decode(stream);
    const rowLength = widths[0]! + widths[1]! + widths[2]!;
    const field = (at: number, width: number) => {
      let value = 0;
      for (let k = 0; k < width; k++) value = value * 256 + data[at + k]!;
      return value;
    };
    const entries = new Map<number, Entry>();
    let at = 0;
    for (let i = 0; i + 1 < index.length; i += 2) {
      for (let n = 0; n < index[i + 1]!; n++, at += rowLength) {
        if (at + rowLength > data.length) break;
        if (entries.size >= READ_BUDGET.xrefEntries) throw new BudgetExceededError('too many xref entries');
        const type = widths[0] === 0 ? 1 : field(at, widths[0]!);
        const second = field(at + widths[0]!, widths[1]!);
        const third = field(at + widths[0]! + widths[1]!, widths[2]!);
        const number = index[i]! + n;
        if (entries.has(number)) continue;
        if (type === 0) entries.set(number, { kind: 'free' });
        else if (type === 1) entries.set(number, { kind: 'offset', offset: second, generation: third });
        else if (type === 2) entries.set(number, { kind: 'compressed', stream: second, index: third });
      }
    }
    return { entries, trailer: dict, prev: numberOf(dict.get(PDFName.of('Prev'))), xrefStm: null };
  }

  /** A stream's data with its filters and predictor undone, counted against the inflate budget. */
  decode(stream: PDFRawStream): Uint8Array {
    const params = stream.dict.get(PDFName.of('DecodeParms'));
    const last = params instanceof PDFArray ? params.get(params.size() - 1) : params;
    const data = unpredict(decodePDFRawStream(stream).decode(), last instanceof PDFDict ? last : undefined);
    this.inflated += data.length;
    if (this.inflated > INFLATE_BUDGET) throw new BudgetExceededError('too much compressed data');
    return data;
  }

  private count(): void {
    if (++this.parsed > READ_BUDGET.objects) throw new BudgetExceededError('too many objects');
  }

  /** The indirect object at `offset` (or a few bytes off, as some writers record it), decrypted unless `raw`. */
  parseAt(offset: number, expected: PDFRef | null, raw = false): IndirectObject | null {
    const found = this.parseExactlyAt(offset, expected, raw);
    if (found || !expected) return found;
    const pattern = new RegExp(`(?<![0-9])${expected.objectNumber}\\s+${expected.generationNumber}\\s+obj\\b`, 'g');
    const near = nearby(this.text, pattern, offset);
    return near === null ? null : this.parseExactlyAt(near, expected, raw);
  }

  private parseExactlyAt(offset: number, expected: PDFRef | null, raw: boolean): IndirectObject | null {
    const key = `${offset}:${raw ? 'raw' : ''}`;
    if (this.objects.has(key)) return this.objects.get(key)!;
    let result: IndirectObject | null = null;
    if (offset >= 0 && offset < this.bytes.length) {
      this.count();
      try {
        const crypto = raw ? undefined : (this.crypto ?? undefined);
        const reader = ObjectReader.at(this.bytes.subarray(offset), this.context, crypto);
        reader.skip();
        const number = reader.int();
        reader.skip();
        const generation = reader.int();
        reader.skip();
        if (reader.keyword('obj') && (!expected || expected.objectNumber === number)) {
          const value = reader.parseObject(PDFRef.of(number, generation));
          reader.skip();
          reader.keyword('endobj');
          result = { value, span: [offset, offset + reader.offset()] };
        }
      } catch (error) {
        if (error instanceof BudgetExceededError) throw error;
        result = null;
      }
    }
    this.objects.set(key, result);
    return result;
  }

  /** Object `index` of the object stream at `offset` (already located through a revision's xref). */
  parseCompressed(
    streamObject: IndirectObject,
    streamOffset: number,
    number: number,
    index: number,
  ): IndirectObject | null {
    let parsed = this.objectStreams.get(streamOffset);
    if (parsed === undefined) {
      parsed = null;
      const stream = streamObject.value;
      if (stream instanceof PDFRawStream && stream.dict.get(PDFName.of('Type')) === PDFName.of('ObjStm')) {
        try {
          const body = this.decode(stream);
          const n = numberOf(stream.dict.get(PDFName.of('N'))) ?? 0;
          const first = numberOf(stream.dict.get(PDFName.of('First'))) ?? 0;
          const header = latin1(body.subarray(0, first)).trim().split(/\s+/).map(Number);
          const numbers: number[] = [];
          const offsets: number[] = [];
          for (let i = 0; i < n && 2 * i + 1 < header.length; i++) {
            numbers.push(header[2 * i]!);
            offsets.push(header[2 * i + 1]!);
          }
          parsed = { numbers, offsets, body, first };
        } catch (error) {
          if (error instanceof BudgetExceededError) throw error;
          parsed = null;
        }
      }
      this.objectStreams.set(streamOffset, parsed);
    }
    if (!parsed || parsed.numbers[index] !== number) return null;
    const key = `${streamOffset}#${index}`;
    if (this.objects.has(key)) return this.objects.get(key)!;
    this.count();
    let result: IndirectObject | null = null;
    try {
      const reader = ObjectReader.at(parsed.body.subarray(parsed.first + parsed.offsets[index]!), this.context);
      result = { value: reader.parseObject(), span: null };
    } catch (error) {
      if (error instanceof BudgetExceededError) throw error;
    }
    this.objects.set(key, result);
    return result;
  }
}

/** The match of `pattern` (global) closest to `offset` within 64 bytes either side, or null. */
function nearby(text: string, pattern: RegExp, offset: number): number | null {
  const from = Math.max(0, offset - 64);
  const window = text.slice(from, offset + 64);
  let best: number | null = null;
  for (const match of window.matchAll(pattern)) {
    const at = from + match.index;
    if (best === null || Math.abs(at - offset) < Math.abs(best - offset)) best = at;
  }
  return best;
}

const numberOf = (value: PDFObject | undefined): number | null =>
  value instanceof PDFNumber && Number.isFinite(value.asNumber()) ? value.asNumber() : null;

/** The document as of one revision: its merged xref and trailer, with lookups through them only. */
export class RevisionState {
  readonly entries = new Map<number, Entry>();
  readonly trailer: PDFDict;

  constructor(
    readonly file: PdfFile,
    readonly end: number,
    chain: XrefSection[],
  ) {
    // The newest section comes first in the chain; an entry it has wins.
    for (const section of chain) {
      for (const [number, entry] of section.entries) if (!this.entries.has(number)) this.entries.set(number, entry);
    }
    this.trailer = chain[0]!.trailer;
  }

  /** A stable identity of what the xref says object `number` is (equal in two states: the same bytes). */
  entryKey(number: number): string | null {
    const entry = this.entries.get(number);
    if (!entry || entry.kind === 'free') return null;
    return entry.kind === 'offset' ? `@${entry.offset}` : `${this.entryKey(entry.stream)}#${entry.index}`;
  }

  /** The indirect object `ref` as this revision's xref locates it. */
  object(ref: PDFRef, raw = false): IndirectObject | null {
    const entry = this.entries.get(ref.objectNumber);
    if (!entry || entry.kind === 'free') return null;
    if (entry.kind === 'offset') {
      if (entry.offset >= this.end) return null;
      return this.file.parseAt(entry.offset, ref, raw);
    }
    const streamEntry = this.entries.get(entry.stream);
    if (!streamEntry || streamEntry.kind !== 'offset') return null;
    const stream = this.file.parseAt(streamEntry.offset, PDFRef.of(entry.stream, 0));
    if (!stream) return null;
    return this.file.parseCompressed(stream, streamEntry.offset, ref.objectNumber, entry.index);
  }

  /** Follows references (a bounded number of hops) to a direct value. */
  resolve(value: PDFObject | undefined): PDFObject | undefined {
    let current = value;
    for (let hops = 0; current instanceof PDFRef && hops < 32; hops++) current = this.object(current)?.value;
    return current instanceof PDFRef ? undefined : current;
  }

  dict(value: PDFObject | undefined): PDFDict | undefined {
    const resolved = this.resolve(value);
    return resolved instanceof PDFDict ? resolved : resolved instanceof PDFRawStream ? resolved.dict : undefined;
  }

  array(value: PDFObject | undefined): PDFArray | undefined {
    const resolved = this.resolve(value);
    return resolved instanceof PDFArray ? resolved : undefined;
  }

  get(dict: PDFDict | undefined, key: string): PDFObject | undefined {
    return dict ? this.resolve(dict.get(PDFName.of(key))) : undefined;
  }

  root(): PDFDict | undefined {
    return this.dict(this.trailer.get(PDFName.of('Root')));
  }
}
