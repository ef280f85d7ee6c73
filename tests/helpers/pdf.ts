import { randomBytes } from 'node:crypto';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  popGraphicsState,
  pushGraphicsState,
  StandardFonts,
} from '@cantoo/pdf-lib';

/**
 * A small, valid PDF for tests: `pages` A4 pages, each with a line of ASCII text. Real bytes, parsed by the same
 * library the upload inspection uses, so a test PDF is accepted for the right reason.
 */
export async function buildPdf(options: { pages?: number; text?: string } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = options.pages ?? 1;
  for (let n = 1; n <= pages; n += 1) {
    const page = pdf.addPage([595.28, 841.89]);
    page.drawText(`${options.text ?? 'Keiyaku test document'} - page ${n}`, { x: 50, y: 780, size: 14, font });
  }
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

/**
 * A PDF of `pages` A4 pages of about `bytes` in all (within a few KB): a line of text and a random-pixel image,
 * stored unfiltered so it does not compress, on each page. For size limits and benchmarks.
 */
export async function buildNoisePdf(bytes: number, pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const width = 256;
  // About 600 bytes a page go to the page, its text and the image's dictionary.
  const height = Math.max(1, Math.round((bytes / pages - 600) / (width * 3)));
  for (let n = 1; n <= pages; n += 1) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Keiyaku test document - page ${n}`, { x: 50, y: 780, size: 14, font });
    const image = doc.context.register(
      doc.context.stream(randomBytes(width * height * 3), {
        Type: 'XObject',
        Subtype: 'Image',
        Width: width,
        Height: height,
        ColorSpace: 'DeviceRGB',
        BitsPerComponent: 8,
      }),
    );
    const name = page.node.newXObject('Noise', image);
    page.pushOperators(
      pushGraphicsState(),
      concatTransformationMatrix(495, 0, 0, 680, 50, 60),
      drawObject(name),
      popGraphicsState(),
    );
  }
  doc.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  doc.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  return doc.save({ useObjectStreams: false });
}
