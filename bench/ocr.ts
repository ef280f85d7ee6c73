/**
 * `npm run bench:ocr [-- --count 100 --seed 1 --verbose]`: accuracy and speed of the ai-ocr reader
 * (plugins/ai-ocr/reader.ts) with the normalisers, on a corpus it generates.
 *
 * The corpus: contracts and invoices (A4, Japanese, IPA Gothic) with random but known values at a fixed layout per
 * document type: a contract or invoice number and a counterparty (text), two dates (2026年4月1日, 2026/4/1,
 * 令和8年4月1日, 平成30年…), an amount (¥1,234,000, 1,234,000円, 金1,234,000円也, 税込 ¥…, full-width digits).
 * Even-numbered documents keep their text layer; odd-numbered ones become scans: rendered at 300 dpi in grey,
 * specked with noise, turned by ±0.3..1.0°, and put back as an image-only PDF. Every document is read at its type's
 * reading positions (the fixed value boxes, a few points of margin), each value normalised (date → yyyy-MM-dd,
 * amount → integer yen, text as is) and compared with what was written. Prints accuracy per field type and source,
 * time per page, and PASS/FAIL against the targets (≥ 99 % on text layers, ≥ 90 % on scans).
 * Works in a temporary folder that is removed at the end. Needs poppler-utils and tesseract (jpn) on the PATH.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import {
  concatTransformationMatrix,
  drawObject,
  PDFDocument,
  type PDFFont,
  popGraphicsState,
  pushGraphicsState,
} from '@cantoo/pdf-lib';
import fontkit from '@pdf-lib/fontkit';
import subsetFont from 'subset-font';
import { readAmount, readDate, readText } from '../plugins/ai-ocr/normalize.ts';
import { readBoxes, type ReadBox } from '../plugins/ai-ocr/reader.ts';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '100' },
    seed: { type: 'string', default: '20260401' },
    verbose: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const COUNT = Number(args.count);
const SEED = Number(args.seed);
if (!Number.isInteger(COUNT) || COUNT < 2) throw new Error('--count must be an integer ≥ 2');
const FONT_PATH = '/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf';
const PAGE = { width: 595, height: 842 };
const TARGETS = { text: 0.99, ocr: 0.9 };
const exec = promisify(execFile);

/** mulberry32: a small seeded PRNG, so a seed always gives the same corpus. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);
const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

// ---- Values ---------------------------------------------------------------------------------------------------------

type FieldType = 'date' | 'amount' | 'text';
interface Field {
  label: string;
  type: FieldType;
  written: string;
  /** What the normaliser must give: yyyy-MM-dd, integer yen as text, or the text itself. */
  expected: string;
}

const KANJI = [
  '山',
  '田',
  '中',
  '村',
  '川',
  '本',
  '東',
  '西',
  '北',
  '南',
  '大',
  '和',
  '光',
  '日',
  '新',
  '高',
  '松',
  '林',
];
const KATAKANA = [
  'ア',
  'カ',
  'サ',
  'タ',
  'ナ',
  'ハ',
  'マ',
  'ヤ',
  'ラ',
  'ワ',
  'キ',
  'シ',
  'ミ',
  'リ',
  'ト',
  'ノ',
  'コ',
  'ス',
];
const TRADES = ['商事', '工業', '製作所', '物産', '建設', '電機', 'システム', 'ホールディングス', ''];
const FULL_WIDTH = (text: string) => text.replace(/[0-9,]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

function company(): string {
  const name =
    random() < 0.5
      ? Array.from({ length: int(2, 3) }, () => pick(KANJI)).join('')
      : Array.from({ length: int(3, 5) }, () => pick(KATAKANA)).join('');
  const trade = pick(TRADES);
  return random() < 0.7 ? `株式会社${name}${trade}` : `${name}${trade}合同会社`;
}

function date(): { written: string; expected: string } {
  const day = new Date(Date.UTC(int(2005, 2030), 0, 1) + int(0, 364) * 86_400_000);
  const [y, m, d] = [day.getUTCFullYear(), day.getUTCMonth() + 1, day.getUTCDate()];
  const expected = day.toISOString().slice(0, 10);
  const style = int(0, 2);
  if (style === 0) return { written: `${y}年${m}月${d}日`, expected };
  if (style === 1) return { written: `${y}/${m}/${d}`, expected };
  const reiwa = expected >= '2019-05-01';
  const eraYear = reiwa ? y - 2018 : y - 1988;
  return { written: `${reiwa ? '令和' : '平成'}${eraYear === 1 ? '元' : eraYear}年${m}月${d}日`, expected };
}

function amount(): { written: string; expected: string } {
  const value = random() < 0.5 ? int(10, 99_999) * 1000 : int(1000, 9_999_999);
  const digits = value.toLocaleString('en-US');
  const written = pick([
    `¥${digits}`,
    `${digits}円`,
    `金${digits}円也`,
    `税込 ¥${digits}`,
    `${FULL_WIDTH(digits)}円`,
    `￥${FULL_WIDTH(digits)}`,
  ]);
  return { written, expected: String(value) };
}

const number = (prefix: string) => `${prefix}-${int(2020, 2030)}-${String(int(1, 99_999)).padStart(5, '0')}`;

// ---- Layout ---------------------------------------------------------------------------------------------------------

interface Layout {
  title: string;
  labels: [string, FieldType][];
  titleAt: { x: number; y: number };
  labelX: number;
  valueX: number;
  top: number;
  spacing: number;
  size: number;
  body: string[];
}

const LAYOUTS: Record<'contract' | 'invoice', Layout> = {
  contract: {
    title: '業務委託契約書',
    labels: [
      ['契約番号', 'text'],
      ['契約相手方', 'text'],
      ['契約締結日', 'date'],
      ['契約満了日', 'date'],
      ['契約金額', 'amount'],
    ],
    titleAt: { x: 220, y: 70 },
    labelX: 60,
    valueX: 190,
    top: 150,
    spacing: 36,
    size: 12,
    body: [
      '第1条（目的）本契約は、甲が乙に対し業務を委託し、乙がこれを受託することに関し必要な事項を定める。',
      '第2条（委託業務）乙は、別紙仕様書に定める業務を誠実に遂行するものとする。',
      '第3条（委託料）甲は乙に対し、前記契約金額を委託料として支払うものとする。',
      '第4条（秘密保持）甲及び乙は、本契約に関して知り得た相手方の秘密を第三者に開示しない。',
      '第5条（協議）本契約に定めのない事項は、甲乙誠実に協議の上解決する。',
    ],
  },
  invoice: {
    title: '請求書',
    labels: [
      ['請求書番号', 'text'],
      ['請求先', 'text'],
      ['請求日', 'date'],
      ['お支払期限', 'date'],
      ['ご請求金額', 'amount'],
    ],
    titleAt: { x: 260, y: 60 },
    labelX: 70,
    valueX: 220,
    top: 180,
    spacing: 40,
    size: 13,
    body: [
      '下記の通りご請求申し上げます。',
      '品目　　　　　　　数量　　単価　　　金額',
      'システム保守作業　　1式　　　―　　　別紙の通り',
      'お振込先：東西銀行　本店営業部　普通　1234567',
      '振込手数料は貴社にてご負担願います。',
    ],
  },
};

interface Doc {
  type: keyof typeof LAYOUTS;
  fields: Field[];
  scan: boolean;
}

function makeDoc(index: number): Doc {
  const type = index % 4 < 2 ? 'contract' : 'invoice';
  const fields = LAYOUTS[type].labels.map(([label, kind], i): Field => {
    if (kind === 'date') return { label, type: kind, ...date() };
    if (kind === 'amount') return { label, type: kind, ...amount() };
    const written = i === 0 ? number(type === 'contract' ? pick(['KY', 'CT', 'AG']) : 'INV') : company();
    return { label, type: kind, written, expected: written };
  });
  return { type, fields, scan: index % 2 === 1 };
}

/** The reading positions: each value's line, a few points of margin around its text. */
function boxesOf(doc: Doc): (ReadBox & { field: Field })[] {
  const layout = LAYOUTS[doc.type];
  return doc.fields.map((field, i) => ({
    key: String(i),
    field,
    page: 1,
    x: layout.valueX - 4,
    y: layout.top + i * layout.spacing - 4,
    width: 330,
    height: layout.size + 8,
    kind: field.type,
  }));
}

async function writePdf(doc: Doc, font: Uint8Array): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const embedded = await pdf.embedFont(font, { subset: false, features: { liga: false, palt: false } });
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const layout = LAYOUTS[doc.type];
  // Top-left y of the text's em box to pdf-lib's baseline (IPA Gothic's ascent is 0.88 em).
  const draw = (text: string, x: number, top: number, size: number, f: PDFFont = embedded) =>
    page.drawText(text, { x, y: PAGE.height - top - size * 0.88, size, font: f });
  draw(layout.title, layout.titleAt.x, layout.titleAt.y, 20);
  doc.fields.forEach((field, i) => {
    const top = layout.top + i * layout.spacing;
    draw(field.label, layout.labelX, top, 11);
    draw(field.written, layout.valueX, top, layout.size);
  });
  const bodyTop = layout.top + layout.labels.length * layout.spacing + 40;
  layout.body.forEach((line, i) => draw(line, 60, bodyTop + i * 24, 10.5));
  return pdf.save();
}

/** Every character the corpus can draw, for one font subset shared by all documents. */
function corpusCharacters(): string {
  const layouts = Object.values(LAYOUTS);
  const text = [
    ...layouts.flatMap((l) => [l.title, ...l.labels.map(([label]) => label), ...l.body]),
    ...KANJI,
    ...KATAKANA,
    ...TRADES,
    '株式会社合同会社令和平成元年月日/¥￥円金也税込,- 0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    FULL_WIDTH('0123456789,'),
  ].join('');
  return [...new Set(text)].join('');
}

// ---- Scans ----------------------------------------------------------------------------------------------------------

/** The page as a scanner would give it: 300 dpi grey, turned a little, with specks of dust. */
async function scan(pdfPath: string, folder: string, name: string): Promise<Uint8Array> {
  const prefix = path.join(folder, `${name}-scan`);
  await exec('pdftoppm', ['-r', '300', '-gray', '-singlefile', '-f', '1', '-l', '1', pdfPath, prefix]);
  const file = await readFile(`${prefix}.pgm`);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(file.subarray(0, 64).toString('latin1'))!;
  const [width, height] = [Number(header[1]), Number(header[2])];
  const source = file.subarray(header[0].length);
  const angle = ((random() < 0.5 ? -1 : 1) * (0.3 + random() * 0.7) * Math.PI) / 180;
  const out = rotate(source, width, height, angle);
  for (let speck = int(300, 900); speck > 0; speck--) {
    const [x, y, r, shade] = [int(0, width - 1), int(0, height - 1), int(1, 3), int(0, 110)];
    for (let dy = -r; dy <= r; dy++) {
      for (let dx = -r; dx <= r; dx++) {
        const [px, py] = [x + dx, y + dy];
        if (dx * dx + dy * dy <= r * r && px >= 0 && py >= 0 && px < width && py < height) {
          out[py * width + px] = Math.min(out[py * width + px]!, shade);
        }
      }
    }
  }
  // The page image straight into the PDF as a Flate-compressed grey image (pdf-lib's embedPng would decode and
  // re-encode the PNG: 3 s a page).
  const pdf = await PDFDocument.create();
  const image = pdf.context.register(
    pdf.context.stream(deflateSync(out, { level: 6 }), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: width,
      Height: height,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
      Filter: 'FlateDecode',
    }),
  );
  const page = pdf.addPage([PAGE.width, PAGE.height]);
  const xObject = page.node.newXObject('Scan', image);
  page.pushOperators(
    pushGraphicsState(),
    concatTransformationMatrix(PAGE.width, 0, 0, PAGE.height, 0, 0),
    drawObject(xObject),
    popGraphicsState(),
  );
  return pdf.save();
}

/** The image turned by `angle` radians about its centre (bilinear), white where nothing turns in. */
function rotate(source: Buffer, width: number, height: number, angle: number): Buffer {
  const out = Buffer.alloc(width * height, 255);
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const cx = width / 2;
  const cy = height / 2;
  for (let y = 0; y < height; y++) {
    const dy = y - cy;
    for (let x = 0; x < width; x++) {
      const dx = x - cx;
      const sx = cos * dx + sin * dy + cx;
      const sy = -sin * dx + cos * dy + cy;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) continue;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * width + x0;
      const top = source[i]! * (1 - fx) + source[i + 1]! * fx;
      const bottom = source[i + width]! * (1 - fx) + source[i + width + 1]! * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy + 0.5;
    }
  }
  return out;
}

// ---- Run ------------------------------------------------------------------------------------------------------------

type Source = 'text' | 'ocr';
const normalised = (type: FieldType, raw: string) =>
  type === 'date'
    ? (readDate(raw)?.value ?? null)
    : type === 'amount'
      ? String(readAmount(raw)?.value ?? '')
      : readText(raw);

async function main() {
  const folder = await mkdtemp(path.join(tmpdir(), 'keiyaku-bench-ocr-'));
  try {
    const font = await subsetFont(readFileSync(FONT_PATH), corpusCharacters(), {
      targetFormat: 'truetype',
      noLayoutClosure: true,
    });
    const docs = Array.from({ length: COUNT }, (_, i) => makeDoc(i));
    const files: string[] = [];
    const generating = Date.now();
    for (const [i, doc] of docs.entries()) {
      const file = path.join(folder, `doc-${i}.pdf`);
      await writeFile(file, await writePdf(doc, font));
      if (doc.scan) await writeFile(file, await scan(file, folder, `doc-${i}`));
      files.push(file);
      process.stderr.write(`\rgenerating ${i + 1}/${COUNT}`);
    }
    process.stderr.write(` (${((Date.now() - generating) / 1000).toFixed(1)} s)\n`);

    const tally = new Map<string, { right: number; total: number }>();
    const count = (key: string, right: boolean) => {
      const entry = tally.get(key) ?? { right: 0, total: 0 };
      entry.right += right ? 1 : 0;
      entry.total += 1;
      tally.set(key, entry);
    };
    const time: Record<Source, { pages: number; ms: number }> = { text: { pages: 0, ms: 0 }, ocr: { pages: 0, ms: 0 } };
    const misses: string[] = [];
    for (const [i, doc] of docs.entries()) {
      const boxes = boxesOf(doc);
      const started = performance.now();
      const { readings } = await readBoxes(files[i]!, boxes, { tesseract: 'tesseract', pageTimeoutMs: 60_000 });
      const source: Source = doc.scan ? 'ocr' : 'text';
      time[source].ms += performance.now() - started;
      time[source].pages += 1;
      for (const box of boxes) {
        const reading = readings.find((r) => r.key === box.key);
        const got = reading ? normalised(box.field.type, reading.raw) : null;
        const right = got === box.field.expected && reading?.source === source;
        count(`${box.field.type}/${source}`, right);
        count(`all/${source}`, right);
        if (!right) {
          misses.push(
            `  doc ${i} ${source} ${box.field.label}: wrote "${box.field.written}", read "${reading?.raw}" ` +
              `(${reading?.source}, ${reading?.confidence}) → ${got}`,
          );
        }
      }
      process.stderr.write(`\rreading ${i + 1}/${COUNT}`);
    }
    process.stderr.write('\n');
    report(tally, time, misses);
  } finally {
    if (args.keep) console.log(`corpus kept in ${folder}`);
    else await rm(folder, { recursive: true, force: true });
  }
}

function report(
  tally: Map<string, { right: number; total: number }>,
  time: Record<Source, { pages: number; ms: number }>,
  misses: string[],
) {
  const percent = (key: string) => {
    const entry = tally.get(key);
    return entry ? `${((100 * entry.right) / entry.total).toFixed(1)} % (${entry.right}/${entry.total})` : '—';
  };
  console.log(`\nbench:ocr  ${COUNT} documents, seed ${SEED}\n`);
  console.log(`${'field'.padEnd(8)}${'text layer'.padEnd(24)}scan (OCR)`);
  for (const type of ['date', 'amount', 'text', 'all']) {
    console.log(`${type.padEnd(8)}${percent(`${type}/text`).padEnd(24)}${percent(`${type}/ocr`)}`);
  }
  console.log('');
  for (const source of ['text', 'ocr'] as const) {
    const { pages, ms } = time[source];
    console.log(
      `${source === 'text' ? 'text layer' : 'scan (OCR)'}: ${pages} pages, ${(pages / (ms / 1000)).toFixed(2)} pages/s, ` +
        `${(ms / 1000 / pages).toFixed(3)} s/page`,
    );
  }
  console.log('');
  let failed = false;
  for (const source of ['text', 'ocr'] as const) {
    const entry = tally.get(`all/${source}`)!;
    const pass = entry.right / entry.total >= TARGETS[source];
    failed ||= !pass;
    console.log(
      `${pass ? 'PASS' : 'FAIL'} ${source === 'text' ? 'text layer' : 'scan (OCR)'} ≥ ${TARGETS[source] * 100} %`,
    );
  }
  if (misses.length > 0) {
    console.log(`\nmisses (${misses.length}${args.verbose ? '' : ', first 20; --verbose for all'}):`);
    console.log((args.verbose ? misses : misses.slice(0, 20)).join('\n'));
  }
  if (failed) process.exitCode = 1;
}

await main();
