import { PdfBudget, skipComment, skipLiteralString } from './pdf-budget.ts';
import { decodeAsParser, type Decryptor } from './pdf-measure.ts';
import { containsEicar, detectExecutable } from './signatures.ts';

/**
 * A byte-level look at a PDF's structure, without a full parser: the names used outside stream data (with #xx
 * escapes decoded), the names inside object streams (decompressed), and the decoded bodies of other streams
 * checked for executables. Shared by upload inspection and the built-in malware-scan engine. Everything it decodes
 * and counts is charged to the file's PdfBudget (pdf-budget.ts): over it, the scan throws PdfBudgetExceeded.
 */
export interface PdfScan {
  /** The trailer (or cross-reference stream) names /Encrypt. */
  encrypted: boolean;
  /** What makes the PDF active ('/JavaScript', '/Launch', 'embedded ELF executable' …), or null. */
  activeContent: string | null;
}

/** Names that make a PDF run something when opened or clicked. */
export const ACTIVE_PDF_NAMES: ReadonlySet<string> = new Set(['JavaScript', 'JS', 'Launch']);

/**
 * What an object or cross-reference stream neither zlib nor pdf-lib's decoders can read (its dictionary does not
 * parse) is charged per stored byte: the most a parser could inflate it to (deflate's limit is about 1:1032; an LZW
 * code stands for at most 4,096 bytes).
 */
const UNMEASURED_RATIO = { lzw: 4096, other: 1032 };

const DELIMITERS = new Set([...'()<>[]{}/%'].map((c) => c.charCodeAt(0)));
const isWhite = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;

/** Decodes #xx escapes in a PDF name (either case of hex digits, which some parsers miss). */
export function decodePdfName(raw: string): string {
  return raw.replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The names of PDF syntax in `text`, in order, skipping literal strings and comments. */
export function pdfNames(text: string): string[] {
  const names: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x28 /* ( */) i = skipLiteralString(text, i);
    else if (c === 0x25 /* % */) i = skipComment(text, i);
    else if (c === 0x2f /* / */) {
      let end = i + 1;
      while (end < text.length && !isWhite(text.charCodeAt(end)) && !DELIMITERS.has(text.charCodeAt(end))) end++;
      names.push(decodePdfName(text.slice(i + 1, end)));
      i = end;
    } else i++;
  }
  return names;
}

interface RawStream {
  /** The text between the previous stream (or object header) and the `stream` keyword: the stream's dictionary. */
  dictText: string;
  dictNames: string[];
  body: Buffer;
  /** The number and generation of the object the stream is, from its `N G obj` header (null when not found). */
  ref: { num: number; gen: number } | null;
}

/**
 * Splits a PDF into the text outside stream data and its streams (dictionary names + raw body). It works on the bytes
 * and turns only what lies outside the streams into text: a 30 MB file of images as one latin1 string cost ~14 ms
 * and as much garbage, on every signature.
 */
export function splitPdf(bytes: Buffer): { outside: string; streams: RawStream[] } {
  const outside: string[] = [];
  const streams: RawStream[] = [];
  let previousEnd = 0;
  for (let keyword = streamKeyword(bytes, 0); keyword; keyword = streamKeyword(bytes, previousEnd)) {
    const head = bytes.toString('latin1', previousEnd, keyword.at);
    const objAt = head.lastIndexOf('obj');
    const dictText = objAt >= 0 ? head.slice(objAt + 3) : head;
    const bodyStart = keyword.at + keyword.length;
    const bodyEnd = streamEnd(bytes, dictText, bodyStart);
    outside.push(head);
    const header = objAt >= 0 ? /(\d+)\s+(\d+)\s+obj$/.exec(head.slice(Math.max(0, objAt - 24), objAt + 3)) : null;
    const ref = header ? { num: Number(header[1]), gen: Number(header[2]) } : null;
    streams.push({ dictText, dictNames: pdfNames(dictText), body: bytes.subarray(bodyStart, bodyEnd), ref });
    previousEnd = Math.min(bytes.length, bodyEnd + 'endstream'.length);
  }
  outside.push(bytes.toString('latin1', previousEnd));
  return { outside: outside.join('\n'), streams };
}

const STREAM = Buffer.from('stream', 'latin1');
const CR = 0x0d;
const LF = 0x0a;
const isLetter = (byte: number | undefined) =>
  byte !== undefined && ((byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a));

/** The next `stream` keyword from `from`: not the end of a word (`endstream`), followed by CRLF, CR or LF. */
function streamKeyword(bytes: Buffer, from: number): { at: number; length: number } | null {
  for (let at = bytes.indexOf(STREAM, from); at >= 0; at = bytes.indexOf(STREAM, at + 1)) {
    if (at > 0 && isLetter(bytes[at - 1])) continue;
    const eol = at + STREAM.length;
    if (bytes[eol] === CR) return { at, length: STREAM.length + (bytes[eol + 1] === LF ? 2 : 1) };
    if (bytes[eol] === LF) return { at, length: STREAM.length + 1 };
  }
  return null;
}

function streamEnd(bytes: Buffer, dictText: string, bodyStart: number): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictText);
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (end <= bytes.length && /^\s*endstream/.test(bytes.toString('latin1', end, end + 16))) return end;
  }
  const found = bytes.indexOf('endstream', bodyStart, 'latin1');
  return found < 0 ? bytes.length : found;
}

const FILTERS: Record<string, string> = {
  FlateDecode: 'flate',
  Fl: 'flate',
  ASCIIHexDecode: 'hex',
  AHx: 'hex',
  ASCII85Decode: 'a85',
  A85: 'a85',
};
const OPAQUE_FILTERS = new Set(['LZWDecode', 'LZW', 'RunLengthDecode', 'RL', 'DCTDecode', 'DCT', 'JPXDecode']);

/**
 * Decodes a stream body through its filters, charging what it inflates to `budget`; null when a filter is
 * unsupported or the data is broken. Throws PdfBudgetExceeded over the budget.
 */
export function decodeStream(dictNames: string[], body: Buffer, budget: PdfBudget): Buffer | null {
  let data: Buffer | null = body;
  for (const name of dictNames) {
    if (OPAQUE_FILTERS.has(name) || name === 'Crypt') return null;
    const filter = FILTERS[name];
    if (!filter) continue;
    if (filter === 'flate') data = budget.inflate(data);
    else {
      try {
        data = filter === 'hex' ? decodeAsciiHex(data) : decodeAscii85(data);
      } catch {
        return null;
      }
    }
    if (!data) return null;
  }
  return data;
}

function decodeAsciiHex(data: Buffer): Buffer {
  let hex = data.toString('latin1').replace(/\s+/g, '');
  const end = hex.indexOf('>');
  if (end >= 0) hex = hex.slice(0, end);
  if (hex.length % 2 === 1) hex += '0';
  return Buffer.from(hex, 'hex');
}

function decodeAscii85(data: Buffer): Buffer {
  let text = data.toString('latin1').replace(/\s+/g, '');
  if (text.startsWith('<~')) text = text.slice(2);
  const end = text.indexOf('~>');
  if (end >= 0) text = text.slice(0, end);
  const out: number[] = [];
  let group: number[] = [];
  const flush = (count: number) => {
    while (group.length < 5) group.push(84);
    const value = group.reduce((acc, digit) => acc * 85 + digit, 0);
    for (let k = 0; k < count; k++) out.push((value >>> (24 - 8 * k)) & 0xff);
    group = [];
  };
  for (const ch of text) {
    if (ch === 'z' && group.length === 0) out.push(0, 0, 0, 0);
    else {
      group.push(ch.charCodeAt(0) - 33);
      if (group.length === 5) flush(4);
    }
  }
  if (group.length > 1) flush(group.length - 1);
  return Buffer.from(out);
}

function activeName(names: Iterable<string>): string | null {
  for (const name of names) if (ACTIVE_PDF_NAMES.has(name)) return `/${name}`;
  return null;
}

const OBJECT_HEADER = /(?<![0-9])\d+\s+\d+\s+obj\b/g;

function countMatches(text: string, pattern: RegExp): number {
  let count = 0;
  pattern.lastIndex = 0;
  while (pattern.exec(text)) count++;
  return count;
}

/** Charges the objects and nesting of the text outside stream data. */
function measureOutside(outside: string, budget: PdfBudget): void {
  budget.countObjects(countMatches(outside, OBJECT_HEADER), 'in the file body');
  budget.checkNesting(outside, 'in the file body');
}

/**
 * Decodes an object or cross-reference stream (a parser unpacks both while it loads the file) within the budget:
 * an object stream's objects are counted and their nesting checked. What zlib refuses is decoded as pdf-lib will
 * (pdf-measure.ts); what neither can read is charged the most it could inflate to. Returns the decoded data, or null.
 */
function measureStructural(stream: RawStream, budget: PdfBudget): Buffer | null {
  let decoded = decodeStream(stream.dictNames, stream.body, budget);
  if (!decoded) {
    const parsed = decodeAsParser(stream.dictText, stream.body, budget.room);
    if (!parsed) {
      const lzw = stream.dictNames.some((n) => n === 'LZWDecode' || n === 'LZW');
      const ratio = lzw ? UNMEASURED_RATIO.lzw : UNMEASURED_RATIO.other;
      budget.charge(stream.body.length * ratio, 'an object or cross-reference stream that cannot be measured');
      return null;
    }
    budget.charge(parsed.length, 'a stream as the parser decodes it');
    decoded = Buffer.from(parsed.buffer, parsed.byteOffset, parsed.byteLength);
  }
  if (stream.dictNames.includes('ObjStm')) {
    const count = Number(/\/N\s+(\d+)/.exec(stream.dictText)?.[1] ?? 0);
    budget.countObjects(count, 'in object streams');
    budget.checkNesting(decoded.toString('latin1'), 'in an object stream');
  }
  return decoded;
}

const isStructural = (stream: RawStream) => stream.dictNames.includes('ObjStm') || stream.dictNames.includes('XRef');

/** What a stream holds that makes the PDF active, if anything. */
function activeStream(stream: RawStream, budget: PdfBudget): string | null {
  const names = new Set(stream.dictNames);
  if (names.has('Image')) return null;
  const decoded = isStructural(stream)
    ? measureStructural(stream, budget)
    : decodeStream(stream.dictNames, stream.body, budget);
  if (!decoded || names.has('XRef')) return null;
  if (names.has('ObjStm')) {
    const found = activeName(pdfNames(decoded.toString('latin1')));
    if (found) return `${found} (in an object stream)`;
  }
  const executable = detectExecutable(decoded);
  if (executable) return `embedded ${executable}`;
  if (containsEicar(decoded)) return 'embedded EICAR test file';
  return null;
}

/**
 * Scans a PDF's bytes for encryption and active content (JavaScript, launch actions, embedded executables), within
 * the file's budget (pdf-budget.ts); it measures everything checkPdfBudget does. Throws PdfBudgetExceeded when the
 * file would cost more.
 */
export function scanPdf(bytes: Buffer, budget = new PdfBudget(bytes.length)): PdfScan {
  const { outside, streams } = splitPdf(bytes);
  measureOutside(outside, budget);
  const names = pdfNames(outside);
  let activeContent = activeName(names);
  for (const stream of streams) {
    // Once something active is found the rest is not looked into, but what a parser would unpack is still measured:
    // the file may yet be parsed (to tell a password or a broken file first) before it is refused.
    if (!activeContent) activeContent = activeStream(stream, budget);
    else if (isStructural(stream)) measureStructural(stream, budget);
  }
  return { encrypted: names.includes('Encrypt'), activeContent };
}

/**
 * The part of the scan that bounds what a parser's load costs: objects, nesting, and the object and
 * cross-reference streams it unpacks. Run before handing bytes we did not make to pdf-lib; throws
 * PdfBudgetExceeded.
 */
export function checkPdfBudget(bytes: Uint8Array, budget = new PdfBudget(bytes.length)): void {
  const { outside, streams } = splitPdf(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  measureOutside(outside, budget);
  for (const stream of streams) if (isStructural(stream)) measureStructural(stream, budget);
}

/**
 * Measures an encrypted file's object streams decrypted by `decrypt`, as a parser opening the file with that
 * password unpacks them (the scan could only see their encrypted bytes): inflated bytes and nesting, charged to the
 * same `budget` the scan used. Throws PdfBudgetExceeded.
 */
export function measureDecrypted(bytes: Buffer, decrypt: Decryptor, budget: PdfBudget): void {
  for (const stream of splitPdf(bytes).streams) {
    if (!stream.dictNames.includes('ObjStm') || !stream.ref) continue;
    const { num, gen } = stream.ref;
    const decoded = decodeAsParser(stream.dictText, stream.body, budget.room, decrypt(num, gen));
    if (!decoded) continue;
    budget.charge(decoded.length, 'a decrypted object stream');
    budget.checkNesting(Buffer.from(decoded).toString('latin1'), 'in a decrypted object stream');
  }
}
