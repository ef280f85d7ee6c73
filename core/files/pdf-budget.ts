/*
 * The budget one PDF we did not make may spend of a reader (DESIGN.md: inflated bytes, objects, nesting). The byte
 * scan (pdf-scan.ts) charges everything it decodes and counts to one PdfBudget per file, and the same walk runs
 * before any parser loads the file (pdf-lib inflates every object stream while it loads, before anyone can look),
 * so a file over the budget is refused before the costly part. In the PDF worker pool a PdfBudgetExceeded ends the
 * task with the task's own budget code (PDF_TOO_COMPLEX for uploads, VERIFICATION_BUDGET_EXCEEDED for verification).
 *
 * The figures, and why:
 *   - inflated bytes: 100 times the file's size, at least 32 MB and at most 256 MB, for the whole file. Text and
 *     fonts deflate 3–10 times; a bomb deflates 1,000 times (a 1 MB file could make a gigabyte). Images are never
 *     inflated by us (they are not where active content hides), so scanned pages do not count against it.
 *   - one stream: 64 MB inflated, whatever the file's budget says.
 *   - objects: 50,000 indirect objects, counting those inside object streams. A contract has hundreds to a few
 *     thousand; a tagged 300-page report tens of thousands. pdf-lib loads every object eagerly (about 40 µs each
 *     here): 100,000 empty objects held a worker 4 s for nothing.
 *   - nesting: 64 arrays and dictionaries inside one another in one object, the limit pdfium (Chrome's PDF reader)
 *     applies; real files stay under ten.
 * Object streams zlib refuses are measured with pdf-lib's own decoders (pdf-measure.ts), which are more lenient, and
 * an encrypted file's object streams are measured decrypted before pdf-lib opens it with the empty password.
 */
import { constants, inflateSync } from 'node:zlib';

const MB = 1024 * 1024;

/** The limits of one file; see the file comment for why each is what it is. */
export const PDF_LIMITS = {
  inflatedPerFileByte: 100,
  inflatedMin: 32 * MB,
  inflatedMax: 256 * MB,
  streamBytes: 64 * MB,
  objects: 50_000,
  depth: 64,
} as const;

/** The file would cost a reader more than its budget: it is refused, never read further. */
export class PdfBudgetExceeded extends Error {
  override name = 'PdfBudgetExceeded';
}

const DELIMITER_OPEN = 0x5b; // [
const DELIMITER_CLOSE = 0x5d; // ]
const LESS = 0x3c; // <
const GREATER = 0x3e; // >

/** What one file has spent so far; throws PdfBudgetExceeded at the first limit crossed. */
export class PdfBudget {
  readonly limits = PDF_LIMITS;
  /** Inflated bytes the whole file may cost. */
  readonly maxInflated: number;
  #inflated = 0;
  #objects = 0;

  constructor(fileBytes: number) {
    const { inflatedPerFileByte, inflatedMin, inflatedMax } = this.limits;
    this.maxInflated = Math.min(inflatedMax, Math.max(inflatedMin, fileBytes * inflatedPerFileByte));
  }

  get inflated(): number {
    return this.#inflated;
  }

  get objects(): number {
    return this.#objects;
  }

  /** The most the next stream may inflate to: the stream limit, or what is left of the file's budget. */
  get room(): number {
    return Math.max(0, Math.min(this.limits.streamBytes, this.maxInflated - this.#inflated));
  }

  /**
   * Inflates zlib data, charging the result; null when the data is broken (a truncated stream yields what it has).
   * Inflating stops as soon as the stream or the file would go over its budget.
   */
  inflate(data: Buffer): Buffer | null {
    const { room } = this;
    let out: Buffer;
    try {
      out = inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: room + 1 });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return null;
      throw this.#overInflated(room);
    }
    if (out.length > room) throw this.#overInflated(room);
    this.#inflated += out.length;
    return out;
  }

  /** Charges `bytes` inflated elsewhere, or that a parser would inflate, for `what`. */
  charge(bytes: number, what: string): void {
    this.#inflated += bytes;
    if (this.#inflated > this.maxInflated) {
      throw new PdfBudgetExceeded(`streams inflate to more than ${this.maxInflated} bytes in all (${what})`);
    }
  }

  /** Charges `count` objects found at `where`. */
  countObjects(count: number, where: string): void {
    this.#objects += count;
    if (this.#objects > this.limits.objects) {
      throw new PdfBudgetExceeded(`more than ${this.limits.objects} objects (${where})`);
    }
  }

  /**
   * Checks how deeply arrays and dictionaries nest in PDF syntax `text`, skipping strings and comments; the depth
   * starts again at each `endobj`, so one broken object cannot add to the next.
   */
  checkNesting(text: string, where: string): void {
    const max = this.limits.depth;
    let depth = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === DELIMITER_OPEN || (c === LESS && text.charCodeAt(i + 1) === LESS)) {
        if (c === LESS) i++;
        if (++depth > max) throw new PdfBudgetExceeded(`arrays or dictionaries nested deeper than ${max} (${where})`);
      } else if (c === DELIMITER_CLOSE || (c === GREATER && text.charCodeAt(i + 1) === GREATER)) {
        if (c === GREATER) i++;
        if (depth > 0) depth--;
      } else if (c === LESS) {
        const end = text.indexOf('>', i + 1); // a hex string
        i = end < 0 ? text.length : end;
      } else if (c === 0x28 /* ( */) i = skipLiteralString(text, i) - 1;
      else if (c === 0x25 /* % */) i = skipComment(text, i) - 1;
      else if (c === 0x65 /* e */ && text.startsWith('endobj', i)) depth = 0;
    }
  }

  #overInflated(room: number): PdfBudgetExceeded {
    return room < this.limits.streamBytes
      ? new PdfBudgetExceeded(`streams inflate to more than ${this.maxInflated} bytes in all`)
      : new PdfBudgetExceeded(`a stream inflates to more than ${this.limits.streamBytes} bytes`);
  }
}

/** The index after the literal string starting at `start` (balanced parentheses, backslash escapes). */
export function skipLiteralString(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5c /* \ */) i++;
    else if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The index of the end of line that ends the comment starting at `start`. */
export function skipComment(text: string, start: number): number {
  let i = start;
  while (i < text.length && text[i] !== '\n' && text[i] !== '\r') i++;
  return i;
}
