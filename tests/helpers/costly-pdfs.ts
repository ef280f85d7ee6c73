/*
 * Well-formed PDFs that are cheap to send and costly to read, for the budgets of the PDF worker pool
 * (core/pdf-work): each is accepted by a parser and costs time or memory in proportion to what it declares.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import { buildPdf, onePageObjects, type PdfObject } from '../fixtures/malicious/pdf-builder.ts';

/**
 * A one-page PDF with `count` unreferenced Flate streams, each inflating to `inflatedMb` MB of zeros: ~62 KB a stream
 * on the wire (deflate's best ratio is ~1:1030), so 100 streams of 64 MB are a 6.2 MB file that makes a reader who
 * decodes every stream (the upload inspection does, looking for active content) inflate 6.4 GB.
 */
export function flateStreamsPdf(count = 100, inflatedMb = 64): Buffer {
  const stream = deflateSync(Buffer.alloc(inflatedMb * 1024 * 1024), { level: 9 });
  const streams: PdfObject[] = Array.from({ length: count }, () => ({ dict: '/Filter /FlateDecode', stream }));
  return buildPdf([...onePageObjects('costly streams'), ...streams]);
}

/**
 * A one-page PDF with one array of `numbers` zeros: 2 bytes each on the wire, and an object of its own each in a
 * parser's heap (tens of bytes), so 5 million of them (10 MB) need far more heap than 64 MB.
 */
export function longArrayPdf(numbers: number): Buffer {
  return buildPdf([...onePageObjects('long array'), `[${'0 '.repeat(numbers)}]`]);
}

const MB = 1024 * 1024;

/** Adler-32 (RFC 1950) of `prefix` followed by `zeros` zero bytes, without making the zeros. */
function adler32(prefix: Buffer, zeros: number): number {
  let a = 1;
  let b = 0;
  for (const byte of prefix) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  b = (b + ((a * (zeros % 65521)) % 65521)) % 65521;
  return ((b << 16) | a) >>> 0;
}

/**
 * A zlib stream of `prefix` followed by `zerosMb` MB of zeros, made of one compressed megabyte repeated: each piece
 * ends with a full flush (byte-aligned, no reference to earlier data), so copies can follow one another, and a
 * gigabyte is written in milliseconds without ever being held.
 */
export function zerosZlib(prefix: Buffer, zerosMb: number): Buffer {
  const piece = (data: Buffer) => deflateRawSync(data, { level: 9, finishFlush: constants.Z_FULL_FLUSH });
  const megabyte = piece(Buffer.alloc(MB));
  const checksum = Buffer.alloc(4);
  checksum.writeUInt32BE(adler32(prefix, zerosMb * MB), 0);
  return Buffer.concat([
    Buffer.from([0x78, 0xda]),
    piece(prefix),
    ...Array.from({ length: zerosMb }, () => megabyte),
    deflateRawSync(Buffer.alloc(0)), // the final (empty) block
    checksum,
  ]);
}

/**
 * A one-page PDF 1.5 whose catalog refers to an object kept in an object stream that inflates to `inflatedMb` MB
 * (the object, then zeros, which are white space to a PDF parser): about 1 KB on the wire per MB, and a parser
 * inflates object streams as it loads the file, before anything else can look at it.
 */
export function objectStreamBombPdf(inflatedMb = 1024): Buffer {
  const header = Buffer.from('6 0 << /Bomb true >>', 'latin1');
  const objects = onePageObjects('object stream bomb', '/Extra 6 0 R ');
  const objStm = zerosZlib(header, inflatedMb);
  return buildPdf([...objects, { dict: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', stream: objStm }], {
    version: '1.5',
  });
}

/** A one-page PDF whose catalog refers to an array nested `depth` levels deep (`[[[…]]]`, 2 bytes a level). */
export function deepNestingPdf(depth = 100_000): Buffer {
  return buildPdf([...onePageObjects('deep nesting', '/Nested 6 0 R '), `${'['.repeat(depth)}${']'.repeat(depth)}`]);
}

/** A one-page PDF with `count` small indirect objects besides its page (about 20 bytes each, plus 20 of xref). */
export function manyObjectsPdf(count = 100_000): Buffer {
  const filler: PdfObject[] = Array.from({ length: count }, (_, i) => `[${i}]`);
  return buildPdf([...onePageObjects('many objects'), ...filler]);
}

/**
 * A one-page PDF with one dictionary repeating one key `pairs` times (`<< /A 0 /A 0 … >>`): 5 bytes a pair on the
 * wire, within every PdfBudget limit, and a parser's heap stays small (each repeat replaces the last) while its time
 * grows with the pairs: six million (30 MB) take pdf-lib 7.5 s on an idle machine here. For the time budget.
 */
export function duplicateKeysPdf(pairs: number): Buffer {
  return buildPdf([...onePageObjects('duplicate keys'), `<< ${'/A 0 '.repeat(pairs)}>>`]);
}
