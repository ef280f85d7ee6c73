/*
 * Well-formed PDFs that are cheap to send and costly to read, for the budgets of the PDF worker pool
 * (core/pdf-work): each is accepted by a parser and costs time or memory in proportion to what it declares.
 */
import { deflateSync } from 'node:zlib';
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
