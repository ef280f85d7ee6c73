import { constants, inflateSync } from 'node:zlib';
import { containsEicar, detectExecutable } from './signatures.ts';

/**
 * A byte-level look at a PDF's structure, without a full parser: the names used outside stream data (with #xx
 * escapes decoded), the names inside object streams (decompressed), and the decoded bodies of other streams
 * checked for executables. Shared by upload inspection and the built-in malware-scan engine.
 */
export interface PdfScan {
  /** The trailer (or cross-reference stream) names /Encrypt. */
  encrypted: boolean;
  /** What makes the PDF active ('/JavaScript', '/Launch', 'embedded ELF executable' …), or null. */
  activeContent: string | null;
}

/** Names that make a PDF run something when opened or clicked. */
export const ACTIVE_PDF_NAMES: ReadonlySet<string> = new Set(['JavaScript', 'JS', 'Launch']);

/** A decoded stream larger than this is not looked into (zip bombs); its compressed bytes are still scanned. */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

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

function skipLiteralString(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
  }
  return text.length;
}

function skipComment(text: string, start: number): number {
  let i = start;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}

interface RawStream {
  /** The text between the previous stream (or object header) and the `stream` keyword: the stream's dictionary. */
  dictNames: string[];
  body: Buffer;
}

/** Splits a PDF into the text outside stream data and its streams (dictionary names + raw body). */
export function splitPdf(bytes: Buffer): { outside: string; streams: RawStream[] } {
  const text = bytes.toString('latin1');
  const keyword = /(?<![A-Za-z])stream(?:\r\n|\r|\n)/g;
  const outside: string[] = [];
  const streams: RawStream[] = [];
  let previousEnd = 0;
  for (let match = keyword.exec(text); match; match = keyword.exec(text)) {
    const head = text.slice(previousEnd, match.index);
    const objAt = head.lastIndexOf('obj');
    const dictText = objAt >= 0 ? head.slice(objAt + 3) : head;
    const bodyStart = match.index + match[0].length;
    const bodyEnd = streamEnd(text, dictText, bodyStart);
    outside.push(head);
    streams.push({ dictNames: pdfNames(dictText), body: bytes.subarray(bodyStart, bodyEnd) });
    previousEnd = Math.min(text.length, bodyEnd + 'endstream'.length);
    keyword.lastIndex = previousEnd;
  }
  outside.push(text.slice(previousEnd));
  return { outside: outside.join('\n'), streams };
}

function streamEnd(text: string, dictText: string, bodyStart: number): number {
  const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dictText);
  if (length) {
    const end = bodyStart + Number(length[1]);
    if (/^\s*endstream/.test(text.slice(end, end + 16))) return end;
  }
  const found = text.indexOf('endstream', bodyStart);
  return found < 0 ? text.length : found;
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

/** Decodes a stream body through its filters; null when a filter is unsupported or the data is broken. */
export function decodeStream(dictNames: string[], body: Buffer): Buffer | null {
  let data: Buffer = body;
  for (const name of dictNames) {
    if (OPAQUE_FILTERS.has(name) || name === 'Crypt') return null;
    const filter = FILTERS[name];
    if (!filter) continue;
    try {
      if (filter === 'flate') {
        data = inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_DECODED_BYTES });
      } else if (filter === 'hex') data = decodeAsciiHex(data);
      else data = decodeAscii85(data);
    } catch {
      return null;
    }
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

/** What a stream holds that makes the PDF active, if anything. */
function activeStream(stream: RawStream): string | null {
  const names = new Set(stream.dictNames);
  if (names.has('Image') || names.has('XRef')) return null;
  const decoded = decodeStream(stream.dictNames, stream.body);
  if (!decoded) return null;
  if (names.has('ObjStm')) {
    const found = activeName(pdfNames(decoded.toString('latin1')));
    if (found) return `${found} (in an object stream)`;
  }
  const executable = detectExecutable(decoded);
  if (executable) return `embedded ${executable}`;
  if (containsEicar(decoded)) return 'embedded EICAR test file';
  return null;
}

/** Scans a PDF's bytes for encryption and active content (JavaScript, launch actions, embedded executables). */
export function scanPdf(bytes: Buffer): PdfScan {
  const { outside, streams } = splitPdf(bytes);
  const names = pdfNames(outside);
  let activeContent = activeName(names);
  for (const stream of streams) {
    if (activeContent) break;
    activeContent = activeStream(stream);
  }
  return { encrypted: names.includes('Encrypt'), activeContent };
}
