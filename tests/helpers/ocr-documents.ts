/*
 * Contracts for the AI-OCR tests: an A4 page with Japanese labels and values at known places (IPA Gothic, a real
 * text layer), or the same page as a scan (rendered by poppler at 150 dpi and embedded as an image, no text), and
 * the reading positions that cover each value.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from '@cantoo/pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import subsetFont from 'subset-font';

const run = promisify(execFile);
export const IPA_GOTHIC = '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf';
const PAGE = { width: 595.28, height: 841.89 };
const SIZE = 14;

export interface ContractValues {
  amount: string;
  date: string;
  party: string;
}

/** Where each value is written (top-left origin, points), and the reading position that covers it. */
const LINES = { date: 160, amount: 200, party: 240 } as const;
const LABELS = { date: '契約日', amount: '契約金額', party: '取引先' } as const;

export const CONTRACT_POSITIONS = Object.fromEntries(
  Object.entries(LINES).map(([key, top]) => [key, { page: 1, x: 190, y: top - 6, width: 320, height: SIZE + 12 }]),
) as Record<keyof ContractValues, { page: number; x: number; y: number; width: number; height: number }>;

export async function contractPdf(values: ContractValues, options: { scan?: boolean } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  // fontkit cannot subset IPA Gothic; harfbuzz (subset-font) cuts the subset and pdf-lib embeds it whole.
  const characters = ['業務委託契約書', ...Object.values(LABELS), ...Object.values(values)].join('');
  const subset = await subsetFont(await readFile(IPA_GOTHIC), characters, { targetFormat: 'truetype' });
  const font = await pdf.embedFont(subset, { subset: false, customName: 'ABCDEF+IPAGothic' });
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const at = (top: number) => PAGE.height - top - SIZE;
  page.drawText('業務委託契約書', { x: 72, y: at(90), size: 20, font });
  for (const key of Object.keys(LINES) as (keyof ContractValues)[]) {
    page.drawText(LABELS[key], { x: 72, y: at(LINES[key]), size: SIZE, font });
    page.drawText(values[key], { x: 200, y: at(LINES[key]), size: SIZE, font });
  }
  pdf.setCreationDate(new Date('2026-01-01T00:00:00Z'));
  pdf.setModificationDate(new Date('2026-01-01T00:00:00Z'));
  const text = Buffer.from(await pdf.save({ useObjectStreams: false }));
  return options.scan ? scanOf(text) : text;
}

/** The page as a scanner would give it: an image only, no text layer. */
async function scanOf(bytes: Buffer): Promise<Buffer> {
  const folder = await mkdtemp(path.join(tmpdir(), 'keiyaku-scan-'));
  try {
    await writeFile(path.join(folder, 'page.pdf'), bytes);
    await run('pdftoppm', ['-r', '150', '-gray', '-png', '-singlefile', 'page.pdf', 'page'], { cwd: folder });
    const scan = await PDFDocument.create();
    const image = await scan.embedPng(await readFile(path.join(folder, 'page.png')));
    scan.addPage([PAGE.width, PAGE.height]).drawImage(image, { x: 0, y: 0, width: PAGE.width, height: PAGE.height });
    return Buffer.from(await scan.save({ useObjectStreams: false }));
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
