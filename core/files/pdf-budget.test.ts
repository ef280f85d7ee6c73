import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildPdf, cleanPdf, onePageObjects, pdfWithObjectStream } from '../../tests/fixtures/malicious/pdf-builder.ts';
import {
  deepNestingPdf,
  flateStreamsPdf,
  manyObjectsPdf,
  objectStreamBombPdf,
  zerosZlib,
} from '../../tests/helpers/costly-pdfs.ts';
import { buildPdf as buildPagesPdf } from '../../tests/helpers/pdf.ts';
import { tempFile } from '../../tests/helpers/signing.ts';
import { inspectUpload } from './inspect.ts';
import { PDF_LIMITS, PdfBudget, PdfBudgetExceeded } from './pdf-budget.ts';
import type { Decryptor } from './pdf-measure.ts';
import { checkPdfBudget, measureDecrypted, scanPdf } from './pdf-scan.ts';

const MB = 1024 * 1024;

/** The PdfBudgetExceeded `run` throws (fails the test when it throws nothing or something else). */
function exceeded(run: () => unknown): PdfBudgetExceeded {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PdfBudgetExceeded);
    return error as PdfBudgetExceeded;
  }
  throw new Error('expected PdfBudgetExceeded, nothing was thrown');
}

describe('the PDF budget of the byte scan', () => {
  const corpus = [
    {
      name: 'an object-stream bomb (1 MB inflating to 1 GB)',
      make: () => objectStreamBombPdf(1024),
      why: /a stream inflates to more than 67108864 bytes/,
    },
    {
      name: '100 Flate streams of 64 MB each',
      make: () => flateStreamsPdf(100, 64),
      why: /streams inflate to more than 268435456 bytes in all/,
    },
    { name: 'arrays nested 100,000 deep', make: () => deepNestingPdf(100_000), why: /nested deeper than 64/ },
    { name: '100,000 objects', make: () => manyObjectsPdf(100_000), why: /more than 50000 objects/ },
  ];

  for (const { name, make, why } of corpus) {
    it(`refuses ${name} within seconds, in the scan and in the parser's pre-check`, () => {
      const pdf = make();
      const started = performance.now();
      expect(exceeded(() => scanPdf(pdf)).message).toMatch(why);
      // Flate streams that are not object streams cost a parser nothing while it loads: only the scan decodes them.
      if (!/Flate streams/.test(name)) expect(exceeded(() => checkPdfBudget(pdf)).message).toMatch(why);
      expect(performance.now() - started).toBeLessThan(10_000);
    });
  }

  it('passes ordinary files: a clean page, an object stream, 49,000 objects, 30 MB inflated from a small file', () => {
    expect(scanPdf(cleanPdf())).toEqual({ encrypted: false, activeContent: null });
    expect(scanPdf(pdfWithObjectStream('<< /S /URI /URI (https://example.com) >>')).activeContent).toBeNull();
    expect(scanPdf(manyObjectsPdf(49_000)).activeContent).toBeNull();
    expect(scanPdf(flateStreamsPdf(1, 30)).activeContent).toBeNull();
    // The same file with 64 MB behind it is a bomb: a thousand times its size.
    expect(exceeded(() => scanPdf(flateStreamsPdf(1, 64))).message).toMatch(/more than 33554432 bytes in all/);
  });

  it('still finds active content, in object streams too', () => {
    expect(scanPdf(pdfWithObjectStream('<< /S /JavaScript /JS (app.alert(1)) >>')).activeContent).toBe(
      '/JavaScript (in an object stream)',
    );
  });

  it('measures what a parser would unpack even after it found active content', () => {
    const activeBomb = buildPdf([
      ...onePageObjects('active bomb', '/OpenAction << /S /JavaScript /JS (x) >> '),
      `${'['.repeat(1000)}${']'.repeat(1000)}`,
    ]);
    expect(exceeded(() => scanPdf(activeBomb)).message).toMatch(/nested deeper than 64/);
  });

  it('budgets a file 100 times its size, at least 32 MB and at most 256 MB', () => {
    expect(new PdfBudget(1024).maxInflated).toBe(32 * MB);
    expect(new PdfBudget(MB).maxInflated).toBe(100 * MB);
    expect(new PdfBudget(30 * MB).maxInflated).toBe(256 * MB);
    const budget = new PdfBudget(MB);
    expect(budget.inflate(deflateSync(Buffer.alloc(60 * MB)))?.length).toBe(60 * MB);
    expect(exceeded(() => budget.inflate(deflateSync(Buffer.alloc(60 * MB)))).message).toMatch(
      /more than 104857600 bytes in all/,
    );
    expect(budget.inflate(Buffer.from('not zlib'))).toBeNull();
  });

  it('counts nesting of arrays and dictionaries, not of strings, comments or hex strings, and per object', () => {
    const budget = new PdfBudget(0);
    const deep = (n: number) => `${'['.repeat(n - 1)}<< /A 1 >>${']'.repeat(n - 1)}`;
    budget.checkNesting(deep(PDF_LIMITS.depth), 'test');
    expect(exceeded(() => budget.checkNesting(deep(PDF_LIMITS.depth + 1), 'test')).message).toMatch(/deeper than 64/);
    budget.checkNesting(`(${'['.repeat(500)}) % ${'<<'.repeat(500)}\n <${'5b'.repeat(500)}>`, 'test');
    // An object left unbalanced (a broken file) does not add to the next one.
    budget.checkNesting(`1 0 obj ${'['.repeat(60)} endobj 2 0 obj ${'['.repeat(60)} endobj`, 'test');
  });

  it('decodes an LZW object stream as pdf-lib will, and charges one whose dictionary no parser reads the most', () => {
    const lzw = buildPdf([
      ...onePageObjects(),
      { dict: '/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode', stream: Buffer.alloc(64 * 1024, 0x80) },
    ]);
    expect(() => checkPdfBudget(lzw)).not.toThrow();
    const unreadable = buildPdf([
      ...onePageObjects(),
      { dict: '/Type /ObjStm /N 1 /First 4 /Filter /LZWDecode /Oops )', stream: Buffer.alloc(64 * 1024, 0x80) },
    ]);
    expect(exceeded(() => checkPdfBudget(unreadable)).message).toMatch(/cannot be measured/);
  });

  it('measures an object stream zlib refuses (a wrong checksum) as pdf-lib decodes it, which ignores checksums', () => {
    const prefix = Buffer.from('6 0 << >>', 'latin1');
    const stream = zerosZlib(prefix, 20);
    stream[stream.length - 1]! ^= 0xff;
    const pdf = buildPdf([...onePageObjects(), { dict: '/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', stream }]);
    const budget = new PdfBudget(pdf.length);
    checkPdfBudget(pdf, budget);
    // Exactly what the parser gets, not an estimate from the stored size.
    expect(budget.inflated).toBe(prefix.length + 20 * MB);
  });

  it("measures an encrypted file's object streams decrypted, before a parser opens it with the password", () => {
    const bomb = objectStreamBombPdf(1024);
    // The decryption is the identity here: what matters is that the decrypted data is measured, not how it is made.
    const identity: Decryptor = () =>
      ({ createStream: (stream: unknown) => stream }) as unknown as ReturnType<Decryptor>;
    expect(exceeded(() => measureDecrypted(bomb, identity, new PdfBudget(bomb.length))).message).toMatch(/as parsed/);
  });

  it('inspects an encrypted 200-page PDF with object streams that opens with the empty password', async () => {
    const plain = tempFile('plain.pdf', await buildPagesPdf({ pages: 200 }));
    const encrypted = tempFile('encrypted.pdf');
    execFileSync('qpdf', ['--object-streams=generate', '--encrypt', '', 'owner', '256', '--', plain, encrypted]);
    const bytes = readFileSync(encrypted);
    expect(bytes.toString('latin1')).toMatch(/\/ObjStm/);
    const inspected = await inspectUpload(bytes, { fileName: 'e.pdf', allowed: ['pdf'], openWithEmptyPassword: true });
    expect(inspected).toMatchObject({ pageCount: 200, encrypted: true });
  });
});
