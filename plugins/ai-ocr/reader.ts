/*
 * Gets the raw text at reading positions out of a PDF: the PDF's own text layer first (poppler's pdftotext with word
 * boxes), Tesseract on a 300 dpi render of just the box where the layer holds nothing there (a scan). Boxes are in
 * PDF points from the top-left corner of page N as displayed (CropBox, /Rotate applied), which is the frame both
 * pdftotext and pdftoppm use with -cropbox. Every tool runs as a child process with an argument array, under a page
 * time budget; one Tesseract runs at a time per process, single-threaded, so a reading never takes both cores.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface ReadBox {
  key: string;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  /**
   * 'date' | 'amount' | 'number' | 'text' | 'enum': room for OCR hints. None is used now: character whitelists per
   * kind made Tesseract read fewer values right (see tesseractMode).
   */
  kind?: string;
}

export interface BoxReading {
  key: string;
  raw: string;
  source: 'text' | 'ocr';
  /** 0..1 */
  confidence: number;
}

export interface ReaderOptions {
  /** Binary path, default 'tesseract'. */
  tesseract: string;
  pageTimeoutMs: number;
  /** Render resolution for OCR, default 300. */
  dpi?: number;
  signal?: AbortSignal;
}

export type OcrErrorCode = 'OCR_ENGINE_FAILED' | 'OCR_PAGE_TIMEOUT' | 'OCR_PDF_UNREADABLE';

export class OcrEngineError extends Error {
  constructor(
    readonly code: OcrErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'OcrEngineError';
  }
}

/** Points added around a box for the text layer: a glyph's centre a hair outside the drawn box still counts. */
const TEXT_PAD = 2;
/** Points added around a box for OCR: scans are shifted and skewed by a few points. */
const OCR_PAD = 5;
/** Points around a box within which a scanned character's centre must lie. */
const INSIDE_PAD = 2;
const TEXT_CONFIDENCE = 0.99;
/** The largest region rendered for OCR at once: an A3 page at 300 dpi is 17.5 million pixels. */
const MAX_RENDER_PIXELS = 25_000_000;

/** What is left of one page's time budget; only time spent in our own children counts, not waiting in the queue. */
interface PageBudget {
  remainingMs: number;
}

interface RunOptions {
  budget: PageBudget;
  signal?: AbortSignal;
  /** The code a non-zero exit means: an unreadable PDF for poppler, an engine failure for Tesseract. */
  failure: OcrErrorCode;
}

function run(command: string, args: string[], options: RunOptions): Promise<Buffer> {
  const { budget, signal, failure } = options;
  signal?.throwIfAborted();
  if (budget.remainingMs <= 0) return Promise.reject(timeoutError(command));
  const started = Date.now();
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    let outcome: Error | null = null;
    const stop = (error: Error) => {
      outcome ??= error;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(() => stop(timeoutError(command)), budget.remainingMs);
    const onAbort = () => stop(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 500) stderr += chunk.toString('utf8');
    });
    child.on('error', (error) => stop(new OcrEngineError('OCR_ENGINE_FAILED', `${command}: ${error.message}`)));
    child.on('close', (code, killedBy) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      budget.remainingMs -= Date.now() - started;
      if (outcome) return reject(outcome);
      if (code === 0) return resolve(Buffer.concat(stdout));
      const how = killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`;
      // A crash is the engine's fault whatever the tool; a clean refusal by poppler means the PDF.
      const kind = killedBy ? 'OCR_ENGINE_FAILED' : failure;
      reject(new OcrEngineError(kind, `${path.basename(command)} ${how}: ${stderr.slice(0, 500)}`));
    });
  });
}

function timeoutError(command: string) {
  return new OcrEngineError('OCR_PAGE_TIMEOUT', `${path.basename(command)} ran past the page time limit`);
}

/** One Tesseract at a time in this process: each is single-threaded, and a job must leave a core to the server. */
let tesseractQueue: Promise<unknown> = Promise.resolve();

function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const result = tesseractQueue.then(work, work);
  tesseractQueue = result.catch(() => undefined);
  return result;
}

async function pageCount(pdfPath: string, options: ReaderOptions): Promise<number> {
  const budget = { remainingMs: options.pageTimeoutMs };
  const info = (
    await run('pdfinfo', [pdfPath], { budget, signal: options.signal, failure: 'OCR_PDF_UNREADABLE' })
  ).toString('latin1');
  const pages = /^Pages:\s+(\d+)\s*$/m.exec(info);
  if (!pages) throw new OcrEngineError('OCR_PDF_UNREADABLE', 'pdfinfo reported no page count');
  return Number(pages[1]);
}

// ---- Text layer -------------------------------------------------------------------------------------------------

interface Word {
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);/gi, (_, name: string) =>
    name.startsWith('#')
      ? String.fromCodePoint(Number(name[1] === 'x' || name[1] === 'X' ? `0${name.slice(1)}` : name.slice(1)))
      : ENTITIES[name.toLowerCase()]!,
  );

/** The lines of pdftotext -bbox-layout's XHTML, each a list of words with their boxes. */
function parseLayout(xhtml: string): Word[][] {
  const lines: Word[][] = [];
  for (const line of xhtml.matchAll(/<line\b[^>]*>([\s\S]*?)<\/line>/g)) {
    const words: Word[] = [];
    for (const w of line[1]!.matchAll(
      /<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([\s\S]*?)<\/word>/g,
    )) {
      words.push({ xMin: +w[1]!, yMin: +w[2]!, xMax: +w[3]!, yMax: +w[4]!, text: unescape(w[5]!) });
    }
    if (words.length > 0) lines.push(words);
  }
  return lines;
}

const CJK = /[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;
/** Width of a character relative to a full-width one: Japanese fonts set ASCII at half width. */
const weight = (c: string) => (c.charCodeAt(0) < 0x2000 || (c >= '\uff61' && c <= '\uff9f') ? 0.5 : 1);

/**
 * Words joined with a space, except between Japanese characters (written without spaces). `loose`: no space when
 * either side is Japanese either, for OCR, which splits words wherever the script changes (2026 年 4 月).
 */
export function joinWords(words: string[], loose = false): string {
  let text = '';
  for (const word of words.filter((w) => w !== '')) {
    const [before, after] = [CJK.test(text.at(-1) ?? ''), CJK.test(word[0]!)];
    const spaced = text !== '' && !(loose ? before || after : before && after);
    text += (spaced ? ' ' : '') + word;
  }
  return text;
}

interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The characters of a word whose centre falls inside the rectangle, splitting a run by character widths. */
function charactersInside(word: Word, r: Rect): string {
  const chars = Array.from(word.text);
  const vertical = chars.length > 1 && word.yMax - word.yMin > (word.xMax - word.xMin) * 1.2;
  const total = chars.reduce((sum, c) => sum + weight(c), 0);
  const [start, length] = vertical ? [word.yMin, word.yMax - word.yMin] : [word.xMin, word.xMax - word.xMin];
  const across = vertical ? (word.xMin + word.xMax) / 2 : (word.yMin + word.yMax) / 2;
  const [acrossMin, acrossMax] = vertical ? [r.x, r.x + r.width] : [r.y, r.y + r.height];
  if (across < acrossMin || across > acrossMax) return '';
  const [alongMin, alongMax] = vertical ? [r.y, r.y + r.height] : [r.x, r.x + r.width];
  let offset = 0;
  let kept = '';
  for (const c of chars) {
    const centre = start + ((offset + weight(c) / 2) / total) * length;
    offset += weight(c);
    if (centre >= alongMin && centre <= alongMax) kept += c;
  }
  return kept;
}

function textInBox(lines: Word[][], box: ReadBox): string {
  const r = pad(box, TEXT_PAD);
  const found = lines
    .map((words) => ({
      top: Math.min(...words.map((w) => w.yMin)),
      text: joinWords(words.map((w) => charactersInside(w, r))),
    }))
    .filter((line) => line.text.trim() !== '');
  found.sort((a, b) => a.top - b.top);
  return joinWords(found.map((line) => line.text.trim()));
}

const pad = (box: Rect, by: number): Rect => ({
  x: box.x - by,
  y: box.y - by,
  width: box.width + 2 * by,
  height: box.height + 2 * by,
});

// ---- OCR ----------------------------------------------------------------------------------------------------------

/** Tesseract's options for a box, after the input and output names. */
function tesseractMode(box: ReadBox, dpi: number): string[] {
  const vertical = box.height > box.width * 2;
  if (vertical) return ['--dpi', String(dpi), '-l', 'jpn_vert', '--psm', '5', 'tsv'];
  // One line unless the box is tall enough for two lines of body text. No character whitelist by box.kind: with
  // Tesseract 5's LSTM it lowered the confidences to near 0 and read fewer dates and amounts right (bench:ocr).
  const psm = box.height <= 28 ? '7' : '6';
  return ['--dpi', String(dpi), '-l', 'jpn+eng', '--psm', psm, 'tsv'];
}

/**
 * Tesseract's TSV per input image (page_num, from 1): the words grouped by line, and their mean confidence
 * (weighted by length) as 0..1.
 */
export function parseTsv(tsv: string): Map<number, { raw: string; confidence: number }> {
  const images = new Map<number, { lines: Map<string, string[]>; weighted: number; characters: number }>();
  for (const row of tsv.split('\n').slice(1)) {
    const cells = row.split('\t');
    if (cells.length < 12 || cells[0] !== '5') continue;
    const text = cells.slice(11).join('\t').trim();
    const confidence = Number(cells[10]);
    if (text === '' || !(confidence >= 0)) continue;
    const image = Number(cells[1]);
    const entry = images.get(image) ?? { lines: new Map<string, string[]>(), weighted: 0, characters: 0 };
    const line = cells.slice(2, 5).join('.');
    entry.lines.set(line, [...(entry.lines.get(line) ?? []), text]);
    entry.weighted += confidence * text.length;
    entry.characters += text.length;
    images.set(image, entry);
  }
  return new Map(
    [...images].map(([image, e]) => [
      image,
      {
        raw: joinWords([...e.lines.values()].map((words) => joinWords(words, true))),
        confidence: Math.round((e.weighted / e.characters) * 10) / 1000,
      },
    ]),
  );
}

interface Gray {
  width: number;
  height: number;
  pixels: Buffer;
}

/** A binary PGM (P5, 8 bits) as pdftoppm -gray writes it. */
function parsePgm(file: Buffer): Gray {
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(file.subarray(0, 64).toString('latin1'));
  if (!header) throw new OcrEngineError('OCR_ENGINE_FAILED', 'pdftoppm wrote no PGM image');
  const [width, height] = [Number(header[1]), Number(header[2])];
  return { width, height, pixels: file.subarray(header[0].length, header[0].length + width * height) };
}

/** A rectangle of the image; what lies outside the image is `fill`. */
function crop(image: Gray, x: number, y: number, width: number, height: number, fill = 255): Gray {
  const out = { width: Math.max(0, width), height: Math.max(0, height), pixels: Buffer.alloc(0) };
  out.pixels = Buffer.alloc(out.width * out.height, fill);
  const [x0, x1] = [Math.max(0, x), Math.min(image.width, x + width)];
  for (let row = Math.max(0, y); row < Math.min(image.height, y + height); row++) {
    if (x1 > x0)
      image.pixels.copy(out.pixels, (row - y) * out.width + (x0 - x), row * image.width + x0, row * image.width + x1);
  }
  return out;
}

interface Component {
  area: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  pixels: number[];
}

/** The 8-connected dark blobs of an image (darker than mid-grey). */
function components(image: Gray): Component[] {
  const { width, height, pixels } = image;
  const seen = new Uint8Array(width * height);
  const found: Component[] = [];
  for (let start = 0; start < pixels.length; start++) {
    if (seen[start] || pixels[start]! >= 160) continue;
    const blob: Component = { area: 0, x0: width, y0: height, x1: 0, y1: 0, pixels: [] };
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const at = stack.pop()!;
      const [x, y] = [at % width, Math.floor(at / width)];
      blob.pixels.push(at);
      blob.area++;
      [blob.x0, blob.y0, blob.x1, blob.y1] = [
        Math.min(blob.x0, x),
        Math.min(blob.y0, y),
        Math.max(blob.x1, x),
        Math.max(blob.y1, y),
      ];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
          const next = ny * width + nx;
          if (!seen[next] && pixels[next]! < 160) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    found.push(blob);
  }
  return found;
}

/**
 * The box's ink without dust, levelled and cut to its extent with a white margin, or null when it holds no text.
 * Scanner dust reads as punctuation and dashes, so a blob smaller than a stroke is kept only next to a larger one.
 */
function clean(image: Gray, dpi: number, inside: { x0: number; y0: number; x1: number; y1: number }): Gray | null {
  const unit = dpi / 300;
  // As on the text layer, a character belongs to the box when its centre is inside (the padding only catches the
  // ends of a skewed line): the edge of a label just left of the box is not part of the value.
  const all = components(image);
  const blobs = all.filter((b) => {
    const [cx, cy] = [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
    return cx >= inside.x0 && cx <= inside.x1 && cy >= inside.y0 && cy <= inside.y1;
  });
  const large = blobs.filter((b) => b.area >= 60 * unit * unit || Math.max(b.x1 - b.x0, b.y1 - b.y0) >= 12 * unit);
  if (large.length === 0) return null;
  const heights = large.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  const near = Math.max(6 * unit, 0.3 * heights[heights.length >> 1]!);
  // A small blob is part of the text when it sits in a line's band right beside or inside a character's cell: a
  // dakuten (゛), the dots of シ, a full stop, a comma. Dust elsewhere goes.
  const kept = blobs.filter(
    (b) =>
      large.includes(b) ||
      (b.area >= 12 * unit * unit &&
        large.some((l) => b.x0 <= l.x1 + near && b.x1 >= l.x0 - near && b.y0 <= l.y1 && b.y1 >= l.y0)),
  );
  // The ink keeps its grey edges (thresholding them away thins the strokes and turns 0s into 6s); dust is painted
  // white with the pixel around it.
  const inked = { ...image, pixels: Buffer.from(image.pixels) };
  for (const blob of all) {
    if (kept.includes(blob)) continue;
    for (const at of blob.pixels) {
      const [x, y] = [at % image.width, Math.floor(at / image.width)];
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx >= 0 && ny >= 0 && nx < image.width && ny < image.height) inked.pixels[ny * image.width + nx] = 255;
        }
      }
    }
  }
  const level = turn(inked, skewOf(large));
  const margin = Math.round(16 * unit);
  const extent = inkExtent(level);
  return (
    extent &&
    crop(
      level,
      extent.x0 - margin,
      extent.y0 - margin,
      extent.x1 - extent.x0 + 1 + 2 * margin,
      extent.y1 - extent.y0 + 1 + 2 * margin,
      255,
    )
  );
}

/**
 * The angle of a single skewed line of characters (least squares through their centres), or 0 when the blobs do not
 * make one line. A scan turned by 1° drifts by a third of a line's height over 300 points, which Tesseract's
 * single-line mode does not correct: the last characters of a long value were the ones misread.
 */
function skewOf(blobs: Component[]): number {
  const heights = blobs.map((b) => b.y1 - b.y0).sort((a, b) => a - b);
  const median = heights[heights.length >> 1] ?? 0;
  const chars = blobs.filter((b) => b.y1 - b.y0 >= 0.6 * median);
  if (chars.length < 4) return 0;
  const xs = chars.map((b) => (b.x0 + b.x1) / 2);
  const ys = chars.map((b) => (b.y0 + b.y1) / 2);
  const [mx, my] = [xs.reduce((a, v) => a + v, 0) / xs.length, ys.reduce((a, v) => a + v, 0) / ys.length];
  let [sxy, sxx] = [0, 0];
  xs.forEach((x, i) => {
    sxy += (x - mx) * (ys[i]! - my);
    sxx += (x - mx) ** 2;
  });
  const slope = sxx === 0 ? 0 : sxy / sxx;
  if (Math.abs(slope) > 0.05) return 0; // more than 3°: not one skewed line
  const off = xs.some((x, i) => Math.abs(ys[i]! - (my + slope * (x - mx))) > median * 0.6);
  return off || Math.abs(slope) < 0.0015 ? 0 : Math.atan(slope);
}

/** The image turned by -angle about its centre (bilinear), white where nothing turns in. */
function turn(image: Gray, angle: number): Gray {
  if (angle === 0) return image;
  const { width, height, pixels } = image;
  const out = Buffer.alloc(width * height, 255);
  const [cos, sin, cx, cy] = [Math.cos(angle), Math.sin(angle), width / 2, height / 2];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sx = cx + cos * (x - cx) - sin * (y - cy);
      const sy = cy + sin * (x - cx) + cos * (y - cy);
      const [x0, y0] = [Math.floor(sx), Math.floor(sy)];
      if (x0 < 0 || y0 < 0 || x0 + 1 >= width || y0 + 1 >= height) continue;
      const [fx, fy, i] = [sx - x0, sy - y0, y0 * width + x0];
      const top = pixels[i]! * (1 - fx) + pixels[i + 1]! * fx;
      const bottom = pixels[i + width]! * (1 - fx) + pixels[i + width + 1]! * fx;
      out[y * width + x] = top * (1 - fy) + bottom * fy + 0.5;
    }
  }
  return { width, height, pixels: out };
}

/** The bounding box of the dark pixels, or null when there are none. */
function inkExtent(image: Gray) {
  let [x0, y0, x1, y1] = [image.width, image.height, -1, -1];
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (image.pixels[y * image.width + x]! >= 160) continue;
      [x0, y0, x1, y1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    }
  }
  return x1 < 0 ? null : { x0, y0, x1, y1 };
}

/**
 * The resolution Tesseract reads boxes at: cleaned boxes at half the render's 300 dpi were read right more often
 * than at full resolution (bench:ocr: 90 % of scanned fields against 82 %).
 */
const READ_DPI = 150;

/** The image scaled by `factor` (bilinear). */
function resize(image: Gray, factor: number): Gray {
  if (factor === 1) return image;
  const width = Math.max(1, Math.round(image.width * factor));
  const height = Math.max(1, Math.round(image.height * factor));
  const pixels = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(image.height - 1.001, Math.max(0, (y + 0.5) / factor - 0.5));
    const [y0, fy] = [Math.floor(sy), sy - Math.floor(sy)];
    for (let x = 0; x < width; x++) {
      const sx = Math.min(image.width - 1.001, Math.max(0, (x + 0.5) / factor - 0.5));
      const [x0, fx] = [Math.floor(sx), sx - Math.floor(sx)];
      const i = y0 * image.width + x0;
      const top = image.pixels[i]! * (1 - fx) + image.pixels[i + 1]! * fx;
      const bottom = image.pixels[i + image.width]! * (1 - fx) + image.pixels[i + image.width + 1]! * fx;
      pixels[y * width + x] = top * (1 - fy) + bottom * fy + 0.5;
    }
  }
  return { width, height, pixels };
}

const pgm = (image: Gray) =>
  Buffer.concat([Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1'), image.pixels]);

/**
 * OCR of a page's boxes that have no text: one render of the region around them (pdftoppm crops while it renders),
 * each box cut out of it, padded, and read by Tesseract.
 */
async function ocrBoxes(
  pdfPath: string,
  page: number,
  boxes: ReadBox[],
  folder: string,
  options: ReaderOptions,
  budget: PageBudget,
) {
  const dpi = options.dpi ?? 300;
  const scale = dpi / 72;
  const pixels = boxes.map((box) => {
    const r = pad(box, OCR_PAD);
    const [x, y] = [Math.max(0, Math.floor(r.x * scale)), Math.max(0, Math.floor(r.y * scale))];
    return {
      box,
      x,
      y,
      width: Math.ceil((r.x + r.width) * scale) - x,
      height: Math.ceil((r.y + r.height) * scale) - y,
    };
  });
  const x = Math.min(...pixels.map((p) => p.x));
  const y = Math.min(...pixels.map((p) => p.y));
  const width = Math.max(...pixels.map((p) => p.x + p.width)) - x;
  const height = Math.max(...pixels.map((p) => p.y + p.height)) - y;
  // The render is held in memory and cleaned on this thread: boxes spread over more than an A3 page are refused.
  if (width * height > MAX_RENDER_PIXELS) {
    throw new OcrEngineError('OCR_PDF_UNREADABLE', `page ${page}: the boxes to read cover ${width}x${height} pixels`);
  }
  const prefix = path.join(folder, `page-${page}`);
  const n = String(page);
  await run(
    'pdftoppm',
    ['-r', String(dpi), '-f', n, '-l', n, '-cropbox', '-gray', '-singlefile'].concat([
      '-x',
      String(x),
      '-y',
      String(y),
      '-W',
      String(width),
      '-H',
      String(height),
      pdfPath,
      prefix,
    ]),
    { budget, signal: options.signal, failure: 'OCR_PDF_UNREADABLE' },
  );
  const region = parsePgm(await readFile(`${prefix}.pgm`));
  const readings: BoxReading[] = [];
  const images: { index: number; key: string; file: string; mode: string[] }[] = [];
  for (const [index, p] of pixels.entries()) {
    const cut = crop(region, p.x - x, p.y - y, p.width, p.height);
    const inner = pad(p.box, INSIDE_PAD);
    const inside = {
      x0: inner.x * scale - p.x,
      y0: inner.y * scale - p.y,
      x1: (inner.x + inner.width) * scale - p.x,
      y1: (inner.y + inner.height) * scale - p.y,
    };
    const image = cut.width > 0 && cut.height > 0 ? clean(cut, dpi, inside) : null;
    if (!image) {
      readings[index] = { key: p.box.key, raw: '', source: 'ocr', confidence: 0 };
      continue;
    }
    const file = `${prefix}-${index}.pgm`;
    await writeFile(file, pgm(resize(image, Math.min(1, READ_DPI / dpi))));
    images.push({ index, key: p.box.key, file, mode: tesseractMode(p.box, Math.min(dpi, READ_DPI)) });
  }
  const tesseract = (mode: string[], files: string[]) => readList(files, mode, `${prefix}-list`, options, budget);
  for (const group of groupBy(images, (i) => i.mode.join(' '))) {
    const read = await tesseract(
      group[0]!.mode,
      group.map((i) => i.file),
    );
    group.forEach((image, n) => (readings[image.index] = { key: image.key, source: 'ocr', ...read[n]! }));
  }
  return readings;
}

function groupBy<T>(items: T[], key: (item: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return [...groups.values()];
}

/** One Tesseract reading a list of images (loading the Japanese model takes longer than reading a box). */
async function readList(files: string[], mode: string[], prefix: string, options: ReaderOptions, budget: PageBudget) {
  const list = `${prefix}-${++lists}.txt`;
  await writeFile(list, files.join('\n') + '\n');
  const tsv = await exclusive(() =>
    run(options.tesseract || 'tesseract', [list, 'stdout', ...mode], {
      budget,
      signal: options.signal,
      failure: 'OCR_ENGINE_FAILED',
    }),
  );
  const read = parseTsv(tsv.toString('utf8'));
  return files.map((_, n) => read.get(n + 1) ?? { raw: '', confidence: 0 });
}
let lists = 0;

// ---- Reading ------------------------------------------------------------------------------------------------------

async function readPage(pdfPath: string, page: number, boxes: ReadBox[], folder: string, options: ReaderOptions) {
  const budget = { remainingMs: options.pageTimeoutMs };
  const n = String(page);
  const xhtml = await run('pdftotext', ['-bbox-layout', '-cropbox', '-enc', 'UTF-8', '-f', n, '-l', n, pdfPath, '-'], {
    budget,
    signal: options.signal,
    failure: 'OCR_PDF_UNREADABLE',
  });
  const lines = parseLayout(xhtml.toString('utf8'));
  const readings: BoxReading[] = [];
  const unread: ReadBox[] = [];
  for (const box of boxes) {
    const text = textInBox(lines, box);
    if (text === '') unread.push(box);
    else readings.push({ key: box.key, raw: text, source: 'text', confidence: TEXT_CONFIDENCE });
  }
  if (unread.length > 0) readings.push(...(await ocrBoxes(pdfPath, page, unread, folder, options, budget)));
  return readings;
}

/**
 * Reads each box's raw text, page by page (only the pages boxes are on; a box past the last page gets no reading).
 * Throws OcrEngineError when poppler cannot read the PDF, a tool crashes, or a page takes longer than pageTimeoutMs.
 */
export async function readBoxes(
  pdfPath: string,
  boxes: ReadBox[],
  options: ReaderOptions,
  onPage?: (done: number, total: number) => void,
): Promise<{ readings: BoxReading[]; pages: number[] }> {
  const valid = boxes.filter(
    (b) => Number.isInteger(b.page) && b.page >= 1 && [b.x, b.y, b.width, b.height].every(Number.isFinite),
  );
  if (valid.length === 0) return { readings: [], pages: [] };
  const count = await pageCount(pdfPath, options);
  const pages = [...new Set(valid.map((b) => b.page))].filter((p) => p <= count).sort((a, b) => a - b);
  const folder = await mkdtemp(path.join(tmpdir(), 'keiyaku-reader-'));
  try {
    const readings: BoxReading[] = [];
    for (const [index, page] of pages.entries()) {
      readings.push(
        ...(await readPage(
          pdfPath,
          page,
          valid.filter((b) => b.page === page),
          folder,
          options,
        )),
      );
      onPage?.(index + 1, pages.length);
    }
    return { readings, pages };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
