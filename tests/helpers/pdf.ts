import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';

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
