import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import {
  concatTransformationMatrix,
  degrees,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
} from '@cantoo/pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import subsetFont from 'subset-font';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OcrEngineError, readBoxes, type ReadBox } from './reader.ts';

const exec = promisify(execFile);
const IPA_GOTHIC = '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf';
const options = { tesseract: 'tesseract', pageTimeoutMs: 20_000 };
let folder = '';
let textPdf = '';
let scanPdf = '';

/** Two A4 pages of Japanese text; the second turned 90° and cropped, as some scanners and editors leave them. */
async function makeTextPdf(): Promise<Uint8Array> {
  const lines = ['契約金額 1,234,000円', '株式会社山田商事', '令和8年4月1日'];
  const subset = await subsetFont(readFileSync(IPA_GOTHIC), lines.join('') + ' ', {
    targetFormat: 'truetype',
    noLayoutClosure: true,
  });
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const font = await doc.embedFont(subset, { subset: false });
  const first = doc.addPage([595, 842]);
  // Top-left y 100 and 200 (the baseline sits 0.88 em below the top).
  first.drawText(lines[0]!, { x: 100, y: 842 - 100 - 14 * 0.88, size: 14, font });
  first.drawText(lines[1]!, { x: 100, y: 842 - 200 - 14 * 0.88, size: 14, font });
  const second = doc.addPage([595, 842]);
  second.drawText(lines[2]!, { x: 100, y: 842 - 100 - 14 * 0.88, size: 14, font });
  second.setCropBox(50, 40, 500, 760);
  second.setRotation(degrees(90));
  return doc.save();
}

/** The first page of a PDF as a 300 dpi grey image and nothing else: no text layer. */
async function makeScan(pdf: string): Promise<Uint8Array> {
  const prefix = path.join(folder, 'scan');
  await exec('pdftoppm', ['-r', '300', '-gray', '-singlefile', '-f', '1', '-l', '1', pdf, prefix]);
  const pgm = await readFile(`${prefix}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(pgm.subarray(0, 64).toString('latin1'))!;
  const doc = await PDFDocument.create();
  const image = doc.context.register(
    doc.context.stream(deflateSync(pgm.subarray(header[0].length)), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: Number(header[1]),
      Height: Number(header[2]),
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
      Filter: 'FlateDecode',
    }),
  );
  const page = doc.addPage([595, 842]);
  const name = page.node.newXObject('Scan', image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(595, 0, 0, 842, 0, 0),
    drawObject(name),
    popGraphicsState(),
  );
  return doc.save();
}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'keiyaku-reader-test-'));
  textPdf = path.join(folder, 'text.pdf');
  scanPdf = path.join(folder, 'scan.pdf');
  await writeFile(textPdf, await makeTextPdf());
  await writeFile(scanPdf, await makeScan(textPdf));
});

afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

// '契約金額 1,234,000円' at x 100, 14 pt: the label is 56 pt wide, a space, then the amount from x ≈ 160.
const amountBox: ReadBox = { key: 'amount', page: 1, x: 158, y: 97, width: 120, height: 20, kind: 'amount' };
const nameBox: ReadBox = { key: 'name', page: 1, x: 97, y: 197, width: 150, height: 20, kind: 'text' };

describe('readBoxes on a text layer', () => {
  it('keeps only the characters of a run whose centre is inside the box, and reports each page', async () => {
    const progress: [number, number][] = [];
    // Page 2 is shown turned and cropped: its text runs down the page at x = 760 - (100 - 42) - 14 (points).
    const turned: ReadBox = { key: 'date', page: 2, x: 686, y: 45, width: 20, height: 110, kind: 'date' };
    const result = await readBoxes(textPdf, [amountBox, nameBox, turned], options, (done, total) =>
      progress.push([done, total]),
    );
    expect(result.readings).toEqual([
      { key: 'amount', raw: '1,234,000円', source: 'text', confidence: 0.99 },
      { key: 'name', raw: '株式会社山田商事', source: 'text', confidence: 0.99 },
      { key: 'date', raw: '令和8年4月1日', source: 'text', confidence: 0.99 },
    ]);
    expect(result.pages).toEqual([1, 2]);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('splits a Japanese run in the middle of a word', async () => {
    const { readings } = await readBoxes(textPdf, [{ ...nameBox, width: 60 }], options);
    expect(readings[0]?.raw).toBe('株式会社');
  });

  it('gives no reading for a box past the last page and does not count that page', async () => {
    const past: ReadBox = { key: 'past', page: 3, x: 10, y: 10, width: 100, height: 20 };
    const { readings, pages } = await readBoxes(textPdf, [nameBox, past], options);
    expect(readings.map((r) => r.key)).toEqual(['name']);
    expect(pages).toEqual([1]);
  });

  it('refuses a file that is not a PDF with OCR_PDF_UNREADABLE', async () => {
    const junk = path.join(folder, 'junk.pdf');
    await writeFile(junk, 'not a pdf at all');
    await expect(readBoxes(junk, [nameBox], options)).rejects.toMatchObject({ code: 'OCR_PDF_UNREADABLE' });
  });
});

describe('readBoxes on a scanned page', () => {
  it('reads the boxes with Tesseract when the page has no text', async () => {
    const { readings, pages } = await readBoxes(scanPdf, [amountBox, nameBox], options);
    const amount = readings.find((r) => r.key === 'amount')!;
    const name = readings.find((r) => r.key === 'name')!;
    expect(amount.source).toBe('ocr');
    // Tesseract's Japanese model often takes IPA Gothic's trailing 0s for 6s or 9s (see bench:ocr), so only the
    // leading digits are certain.
    expect(amount.raw.replace(/\s/g, '')).toMatch(/^1,234,\d{3}円$/);
    expect(name).toMatchObject({ source: 'ocr', raw: '株式会社山田商事' });
    expect(name.confidence).toBeGreaterThan(0.5);
    expect(name.confidence).toBeLessThanOrEqual(1);
    expect(pages).toEqual([1]);
  });

  it('reads an empty box on a scan as nothing, without making text up', async () => {
    const empty: ReadBox = { key: 'empty', page: 1, x: 300, y: 500, width: 200, height: 20 };
    const { readings } = await readBoxes(scanPdf, [empty], options);
    expect(readings).toEqual([{ key: 'empty', raw: '', source: 'ocr', confidence: 0 }]);
  });

  it('stops a page that takes longer than pageTimeoutMs with OCR_PAGE_TIMEOUT', async () => {
    const error = await readBoxes(scanPdf, [nameBox], { ...options, pageTimeoutMs: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcrEngineError);
    expect(error).toMatchObject({ code: 'OCR_PAGE_TIMEOUT' });
  });

  it('turns a crashing Tesseract into OCR_ENGINE_FAILED', async () => {
    const crashing = path.join(folder, 'crashing-tesseract.sh');
    await writeFile(crashing, '#!/bin/sh\necho "engine broke" >&2\nkill -SEGV $$\n');
    await chmod(crashing, 0o755);
    const error = await readBoxes(scanPdf, [nameBox], { ...options, tesseract: crashing }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OcrEngineError);
    expect(error).toMatchObject({ code: 'OCR_ENGINE_FAILED' });
    expect((error as Error).message).toContain('engine broke');
  });
});
