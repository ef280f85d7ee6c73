import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFObject, PDFStream } from '@cantoo/pdf-lib';
import { AppError } from '../http/errors.ts';
import { PdfBudget } from './pdf-budget.ts';
import { emptyPasswordDecryptor } from './pdf-measure.ts';
import { ACTIVE_PDF_NAMES, decodePdfName, measureDecrypted, scanPdf } from './pdf-scan.ts';
import { containsEicar, detectExecutable } from './signatures.ts';
import type { UploadKind } from './upload-limits.ts';

/** The kinds of file an upload place may accept (core/files/upload-limits.ts decides which, per place). */
export type { UploadKind };

export interface InspectedUpload {
  kind: UploadKind;
  contentType: string;
  /** Pages of a PDF; null for other kinds. */
  pageCount: number | null;
  /** The PDF is encrypted (and was opened with the empty user password: only where the caller allows that). */
  encrypted: boolean;
}

const CONTENT_TYPES: Record<UploadKind, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  png: 'image/png',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
};

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const PDF_EOF = Buffer.from('%%EOF', 'latin1');

/**
 * Decides what an uploaded file is by its content, never by its name, and refuses what must not be stored:
 * empty files, executables, the EICAR test file, password-protected, corrupted or active (JavaScript, launch,
 * embedded executable) PDFs, and kinds the place does not allow. Resolves with the kind and, for PDFs, the pages.
 * Every encrypted PDF counts as password-protected unless `openWithEmptyPassword` is set (the verification place
 * only): then one that opens with the empty user password is accepted and inspected decrypted.
 * A PDF is scanned within its budget (core/files/pdf-budget.ts) before the parser sees it; over it, this throws
 * PdfBudgetExceeded. It parses what it is given: call it in the PDF worker pool (task `inspect`), never on the
 * event loop.
 */
export async function inspectUpload(
  bytes: Buffer,
  input: { fileName: string; allowed: readonly UploadKind[]; openWithEmptyPassword?: boolean },
): Promise<InspectedUpload> {
  if (bytes.length === 0) throw new AppError('FILE_EMPTY', { pointer: '/file' });
  if (containsEicar(bytes)) throw new AppError('FILE_MALWARE_DETECTED', { detail: 'EICAR test file' });
  const executable = detectExecutable(bytes);
  if (executable) throw new AppError('FILE_EXECUTABLE', { detail: executable });
  const kind = sniffKind(bytes);
  if (!kind || !input.allowed.includes(kind)) {
    throw new AppError('FILE_TYPE_NOT_ALLOWED', {
      pointer: '/file',
      params: { allowed: input.allowed.map((k) => k.toUpperCase()).join(', ') },
    });
  }
  const pdf = kind === 'pdf' ? await inspectPdf(bytes, input.openWithEmptyPassword ?? false) : null;
  return { kind, contentType: CONTENT_TYPES[kind], pageCount: pdf?.pages ?? null, encrypted: pdf?.encrypted ?? false };
}

/** The kind `bytes` are by their magic numbers (CSV: text in UTF-8 or Shift_JIS without NULs), or null. */
export function sniffKind(bytes: Buffer): UploadKind | null {
  if (bytes.subarray(0, 1024).indexOf(PDF_HEADER) >= 0) return 'pdf';
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const head = bytes.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
  return isText(bytes) ? 'csv' : null;
}

function isText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  for (const encoding of ['utf-8', 'shift_jis']) {
    try {
      new TextDecoder(encoding, { fatal: true }).decode(bytes);
      return true;
    } catch {
      // not this encoding
    }
  }
  return false;
}

/**
 * Checks a PDF in two layers (byte scan, then a real parser) and returns its page count and whether it is encrypted.
 * The scan measures what the parser would unpack (objects, nesting, object streams) and throws over the budget, so
 * the parser only sees a file within it.
 */
async function inspectPdf(
  bytes: Buffer,
  openWithEmptyPassword: boolean,
): Promise<{ pages: number; encrypted: boolean }> {
  const budget = new PdfBudget(bytes.length);
  const scan = scanPdf(bytes, budget);
  if (scan.encrypted && !openWithEmptyPassword) throw new AppError('FILE_PASSWORD_PROTECTED');
  if (bytes.subarray(Math.max(0, bytes.length - 1024)).indexOf(PDF_EOF) < 0) {
    throw new AppError('FILE_CORRUPTED', { detail: 'no %%EOF at the end of the file' });
  }
  let document = await parsePdf(bytes);
  const encrypted = scan.encrypted || document.isEncrypted;
  if (encrypted) {
    if (!openWithEmptyPassword) throw new AppError('FILE_PASSWORD_PROTECTED');
    // Decrypted, the object streams may hold what their encrypted bytes hid from the scan: measured first.
    const decrypt = await emptyPasswordDecryptor(document);
    if (!decrypt) throw new AppError('FILE_PASSWORD_PROTECTED');
    measureDecrypted(bytes, decrypt, budget);
    document = await decryptWithEmptyPassword(bytes);
  }
  if (scan.activeContent) throw new AppError('FILE_ACTIVE_CONTENT', { detail: scan.activeContent });
  const parsedActive = activeObject(document);
  if (parsedActive) throw new AppError('FILE_ACTIVE_CONTENT', { detail: parsedActive });
  let pages: number;
  try {
    pages = document.getPageCount();
  } catch (error) {
    throw new AppError('FILE_CORRUPTED', { detail: 'no readable page tree', cause: error });
  }
  if (pages === 0) throw new AppError('FILE_CORRUPTED', { detail: 'the PDF has no pages' });
  return { pages, encrypted };
}

async function parsePdf(bytes: Buffer): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch (error) {
    throw new AppError('FILE_CORRUPTED', { detail: (error as Error).message, cause: error });
  }
}

/**
 * Opens an encrypted PDF (that parses) with the empty user password. One that needs a password, or whose security
 * handler the parser cannot open, stays password-protected.
 */
async function decryptWithEmptyPassword(bytes: Buffer): Promise<PDFDocument> {
  let document: PDFDocument;
  try {
    document = await PDFDocument.load(bytes, { password: '', updateMetadata: false });
  } catch (error) {
    throw new AppError('FILE_PASSWORD_PROTECTED', { detail: (error as Error).message, cause: error });
  }
  if (document.isEncrypted || !document.context.isDecrypted) throw new AppError('FILE_PASSWORD_PROTECTED');
  return document;
}

/** An active name anywhere in the parsed objects (object streams included, as the parser unpacks them). */
function activeObject(document: PDFDocument): string | null {
  for (const [, object] of document.context.enumerateIndirectObjects()) {
    const found = activeIn(object, 0);
    if (found) return found;
  }
  return null;
}

function activeIn(object: PDFObject, depth: number): string | null {
  if (depth > 32) return null;
  if (object instanceof PDFName) {
    const name = decodePdfName(object.decodeText());
    return ACTIVE_PDF_NAMES.has(name) ? `/${name}` : null;
  }
  const dict = object instanceof PDFStream ? object.dict : object;
  if (dict instanceof PDFDict) {
    for (const [key, value] of dict.entries()) {
      const found = activeIn(key, depth + 1) ?? activeIn(value, depth + 1);
      if (found) return found;
    }
  }
  if (object instanceof PDFArray) {
    for (const item of object.asArray()) {
      const found = activeIn(item, depth + 1);
      if (found) return found;
    }
  }
  return null;
}
