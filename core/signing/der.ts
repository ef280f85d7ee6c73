/*
 * A minimal DER writer and reader for the structures signing builds on every signature (CMS SignedData, its
 * SignerInfo, the TimeStampResp of the built-in TSA). Building them through pkijs objects costs several
 * milliseconds of parsing and re-encoding per signature (each certificate parsed and encoded again, the whole CMS
 * parsed again to add the timestamp); here certificates stay the DER they are and a structure is its bytes.
 * Only definite lengths (DER); the reader refuses anything else.
 */

/** A TLV: tag byte(s) and content. Lengths are encoded minimally (X.690 §10.1). */
export function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const part of content) length += part.length;
  const header = lengthHeader(tag, length);
  const out = new Uint8Array(header.length + length);
  out.set(header, 0);
  let at = header.length;
  for (const part of content) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function lengthHeader(tag: number, length: number): Uint8Array {
  if (length < 0x80) return Uint8Array.of(tag, length);
  const bytes: number[] = [];
  for (let n = length; n > 0; n = Math.floor(n / 256)) bytes.unshift(n & 0xff);
  return Uint8Array.of(tag, 0x80 | bytes.length, ...bytes);
}

export const sequence = (...content: Uint8Array[]) => tlv(0x30, ...content);
export const set = (...content: Uint8Array[]) => tlv(0x31, ...content);
export const octetString = (bytes: Uint8Array) => tlv(0x04, bytes);
export const NULL = Uint8Array.of(0x05, 0x00);
/** [n] EXPLICIT or a constructed [n] IMPLICIT: context-specific, constructed. */
export const contextConstructed = (n: number, ...content: Uint8Array[]) => tlv(0xa0 | n, ...content);

/** A non-negative INTEGER from a small number. */
export function smallInteger(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 127) throw new Error(`unsupported small integer ${value}`);
  return Uint8Array.of(0x02, 0x01, value);
}

/** An OBJECT IDENTIFIER from its dotted form. */
const oidCache = new Map<string, Uint8Array>();
export function oid(dotted: string): Uint8Array {
  let cached = oidCache.get(dotted);
  if (!cached) {
    const arcs = dotted.split('.').map(BigInt);
    if (arcs.length < 2) throw new Error(`bad OID ${dotted}`);
    const bytes: number[] = [];
    const push = (arc: bigint) => {
      const groups: number[] = [Number(arc & 0x7fn)];
      for (let rest = arc >> 7n; rest > 0n; rest >>= 7n) groups.unshift(Number(rest & 0x7fn) | 0x80);
      bytes.push(...groups);
    };
    push(arcs[0]! * 40n + arcs[1]!);
    for (const arc of arcs.slice(2)) push(arc);
    cached = tlv(0x06, Uint8Array.from(bytes));
    oidCache.set(dotted, cached);
  }
  return cached;
}

/** One element read from DER: its tag, where its header and content are. */
export interface DerElement {
  tag: number;
  /** Offset of the tag byte. */
  start: number;
  /** Offset of the first content byte. */
  contentStart: number;
  /** Offset after the last content byte. */
  end: number;
}

/** The element starting at `at` in `bytes` (single-byte tags, definite lengths only). */
export function readElement(bytes: Uint8Array, at: number): DerElement {
  if (at + 2 > bytes.length) throw new Error('DER: truncated');
  const tag = bytes[at]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('DER: multi-byte tags are not supported');
  const first = bytes[at + 1]!;
  let length = first;
  let contentStart = at + 2;
  if (first >= 0x80) {
    const count = first & 0x7f;
    if (count === 0 || count > 4) throw new Error('DER: indefinite or oversized length');
    length = 0;
    for (let i = 0; i < count; i++) length = length * 256 + bytes[at + 2 + i]!;
    contentStart += count;
  }
  const end = contentStart + length;
  if (end > bytes.length) throw new Error('DER: length past the end');
  return { tag, start: at, contentStart, end };
}

/** The elements inside a constructed element, in order. */
export function children(bytes: Uint8Array, parent: DerElement): DerElement[] {
  const found: DerElement[] = [];
  for (let at = parent.contentStart; at < parent.end;) {
    const element = readElement(bytes, at);
    found.push(element);
    at = element.end;
  }
  return found;
}

export const bytesOf = (bytes: Uint8Array, element: DerElement) => bytes.subarray(element.start, element.end);

/** What a SignerInfo needs of a certificate, read from its DER without decoding the rest. */
export interface CertificateIds {
  /** The issuer Name's DER. */
  issuer: Uint8Array;
  /** The serialNumber INTEGER's DER (tag and length included). */
  serial: Uint8Array;
}

const idsCache = new WeakMap<Uint8Array, CertificateIds>();

/** The issuer and serial number of a certificate (Certificate ::= SEQUENCE { tbsCertificate SEQUENCE { … } … }). */
export function certificateIds(certificate: Uint8Array): CertificateIds {
  let ids = idsCache.get(certificate);
  if (!ids) {
    const outer = readElement(certificate, 0);
    const tbs = readElement(certificate, outer.contentStart);
    const fields = children(certificate, tbs);
    // version is [0] EXPLICIT and optional (absent for v1).
    const offset = fields[0]?.tag === 0xa0 ? 1 : 0;
    const serial = fields[offset];
    const issuer = fields[offset + 2];
    if (outer.tag !== 0x30 || tbs.tag !== 0x30 || serial?.tag !== 0x02 || issuer?.tag !== 0x30) {
      throw new Error('not an X.509 certificate');
    }
    ids = { issuer: bytesOf(certificate, issuer), serial: bytesOf(certificate, serial) };
    idsCache.set(certificate, ids);
  }
  return ids;
}
