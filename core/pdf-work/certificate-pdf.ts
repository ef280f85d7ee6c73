/*
 * Lays out a completion certificate (合意締結証明書) as an A4 PDF: a title, a table of facts, one block per signer
 * and notes, in Noto Sans JP embedded as a subset (the font the signature appearances use, cut by harfbuzz and
 * embedded by pdf-lib with a ToUnicode map, so pdftotext reads the text back). The content is plain data made by
 * core/modules/documents/completion-certificate.ts; this runs in the PDF worker pool (the font work takes a few
 * hundred milliseconds) and the result is signed on the main thread.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PDFDocument, type PDFFont, type PDFPage, rgb } from '@cantoo/pdf-lib';

export interface CertificateFact {
  label: string;
  value: string;
}

/** What the certificate says; every string is drawn as given. */
export interface CertificateContent {
  title: string;
  subtitle: string;
  /** PDF metadata. */
  documentTitle: string;
  facts: CertificateFact[];
  signersTitle: string;
  signers: { heading: string; facts: CertificateFact[] }[];
  notes: string[];
}

let fontBytes: Buffer | null = null;
/** The bytes of Noto Sans JP Regular (the font of certificates, invoices and signature appearances), read once. */
export function japaneseFont(): Buffer {
  if (!fontBytes) {
    const packageJson = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-jp/package.json');
    fontBytes = readFileSync(path.join(path.dirname(packageJson), '400Regular', 'NotoSansJP_400Regular.ttf'));
  }
  return fontBytes;
}

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 48;
const LABEL_WIDTH = 170;
const SIZE = 9;
const LINE = 14;

/** Breaks `text` into lines no wider than `width` (character by character: Japanese has no spaces to break at). */
function wrap(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const character of paragraph) {
      if (line && font.widthOfTextAtSize(line + character, size) > width) {
        lines.push(line);
        line = '';
      }
      line += character;
    }
    lines.push(line);
  }
  return lines;
}

class Writer {
  page: PDFPage;
  y: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.page = doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  ensure(height: number): void {
    if (this.y - height >= MARGIN) return;
    this.page = this.doc.addPage([A4.width, A4.height]);
    this.y = A4.height - MARGIN;
  }

  text(value: string, options: { size?: number; x?: number; width?: number; gray?: boolean } = {}): void {
    const size = options.size ?? SIZE;
    const x = options.x ?? MARGIN;
    const width = options.width ?? A4.width - MARGIN - x;
    for (const line of wrap(this.font, value, size, width)) {
      this.ensure(size + 4);
      this.y -= size + 4;
      this.page.drawText(line, {
        x,
        y: this.y,
        size,
        font: this.font,
        color: options.gray ? rgb(0.35, 0.35, 0.35) : rgb(0, 0, 0),
      });
    }
  }

  facts(facts: CertificateFact[], indent = 0): void {
    const x = MARGIN + indent;
    const valueX = x + LABEL_WIDTH;
    const valueWidth = A4.width - MARGIN - valueX;
    for (const fact of facts) {
      const labelLines = wrap(this.font, fact.label, SIZE, LABEL_WIDTH - 8);
      const valueLines = wrap(this.font, fact.value, SIZE, valueWidth);
      const rows = Math.max(labelLines.length, valueLines.length);
      this.ensure(rows * LINE + 4);
      const top = this.y;
      for (let i = 0; i < rows; i++) {
        const baseline = top - (i + 1) * LINE + 3;
        if (labelLines[i]) {
          this.page.drawText(labelLines[i]!, {
            x,
            y: baseline,
            size: SIZE,
            font: this.font,
            color: rgb(0.3, 0.3, 0.3),
          });
        }
        if (valueLines[i]) this.page.drawText(valueLines[i]!, { x: valueX, y: baseline, size: SIZE, font: this.font });
      }
      this.y = top - rows * LINE - 3;
      this.page.drawLine({
        start: { x, y: this.y + 1 },
        end: { x: A4.width - MARGIN, y: this.y + 1 },
        thickness: 0.3,
        color: rgb(0.8, 0.8, 0.8),
      });
    }
  }

  gap(height: number): void {
    this.y -= height;
  }
}

/** Every string the certificate draws, for the font subset. */
function allText(content: CertificateContent): string {
  const facts = (list: CertificateFact[]) => list.flatMap((f) => [f.label, f.value]);
  return [
    content.title,
    content.subtitle,
    ...facts(content.facts),
    content.signersTitle,
    ...content.signers.flatMap((s) => [s.heading, ...facts(s.facts)]),
    ...content.notes,
  ].join('');
}

/** The certificate's PDF (unsigned). */
export async function renderCertificatePdf(content: CertificateContent, createdAt: Date): Promise<Uint8Array> {
  const [{ default: subsetFont }, { default: fontkit }] = await Promise.all([
    import('subset-font'),
    import('@pdf-lib/fontkit'),
  ]);
  const characters = [...new Set(allText(content).replace(/\s/g, ''))].join('') + ' ';
  // Without the layout closure: fontkit lays text out with the font's default features, and a substitution to an
  // alternate glyph (Noto Sans JP has them for digits) would draw a glyph the ToUnicode map and widths do not list.
  const subset = await subsetFont(japaneseFont(), characters, { targetFormat: 'truetype', noLayoutClosure: true });
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  const tag = Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join('');
  const font = await doc.embedFont(subset, {
    subset: false,
    customName: `${tag}+NotoSansJP-Regular`,
    // No ligatures: "fi" stays two glyphs, so text extraction reads "Certificate".
    features: { liga: false, clig: false, dlig: false },
  });
  doc.setTitle(content.documentTitle);
  doc.setProducer('Keiyaku');
  doc.setCreator('Keiyaku');
  doc.setCreationDate(createdAt);
  doc.setModificationDate(createdAt);

  const out = new Writer(doc, font);
  out.text(content.title, { size: 18 });
  out.text(content.subtitle, { size: 10, gray: true });
  out.gap(10);
  out.facts(content.facts);
  out.gap(14);
  out.text(content.signersTitle, { size: 12 });
  for (const signer of content.signers) {
    out.gap(6);
    out.ensure(LINE * 4);
    out.text(signer.heading, { size: 10 });
    out.facts(signer.facts, 12);
  }
  out.gap(14);
  for (const note of content.notes) out.text(note, { size: 8, gray: true });
  return doc.save({ useObjectStreams: false });
}
