/*
 * multipart/form-data uploads. The middleware does not read the body: it hands the route a MultipartRequest, and
 * the handler reads it with the limit of its upload place (core/files/upload-limits.ts) after authentication and
 * access checks have passed. The file is counted while it streams: past the limit the rest is discarded (never
 * buffered) and the upload is 413 FILE_TOO_LARGE; nothing is written anywhere before the whole file is in.
 */
import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import type { Context, Middleware, Next } from 'koa';
import { type UploadLimit, maxMbOf } from '../files/upload-limits.ts';
import { AppError, type FieldError } from './errors.ts';
import { cleanFileName } from './file-name.ts';
import { hasInvalidCharacters } from './invalid-characters.ts';

/** Room for the multipart framing and the text fields beside the file, in bytes. */
const FRAMING_ALLOWANCE = 1024 * 1024;
const FIELD_MAX_BYTES = 256 * 1024;

/** The uploaded file of a form: its name as the client sent it (without hidden characters), and its bytes. */
export interface UploadedFile {
  /** Format and control characters (bidi overrides, zero-width characters ...) are removed: core/http/file-name.ts. */
  fileName: string;
  /** The media type the client declared (informative only: content decides). */
  declaredType: string;
  bytes: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  /** The part named `file`, or null when the form has none. */
  file: UploadedFile | null;
}

/** An unread multipart body; `read(limit)` parses it once. */
export class MultipartRequest {
  private consumed = false;

  constructor(private readonly req: IncomingMessage) {}

  async read(limit: UploadLimit): Promise<MultipartForm> {
    if (this.consumed) throw new Error('multipart body read twice');
    this.consumed = true;
    const declared = Number(this.req.headers['content-length'] ?? '0');
    if (declared > limit.maxBytes + FRAMING_ALLOWANCE) {
      throw new AppError('FILE_TOO_LARGE', { params: { maxMb: maxMbOf(limit) } });
    }
    const { form, tooLarge } = await parse(this.req, limit.maxBytes);
    if (tooLarge) throw new AppError('FILE_TOO_LARGE', { params: { maxMb: maxMbOf(limit) } });
    return form;
  }
}

function parse(req: IncomingMessage, maxBytes: number): Promise<{ form: MultipartForm; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: 'utf8',
        // busboy signals its limit when the file *reaches* fileSize: one byte more lets a file of exactly maxBytes in.
        limits: { fileSize: maxBytes + 1, files: 1, fields: 30, fieldSize: FIELD_MAX_BYTES, parts: 40 },
      });
    } catch (error) {
      reject(new AppError('MALFORMED_REQUEST', { detail: (error as Error).message }));
      return;
    }
    const fields: Record<string, string> = {};
    let file: UploadedFile | null = null;
    let tooLarge = false;
    let fieldTooLong: string | null = null;
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated) fieldTooLong = name;
      fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || file) {
        stream.resume(); // not ours: discard
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        if (!tooLarge) chunks.push(chunk);
      });
      stream.on('limit', () => {
        tooLarge = true;
        chunks.length = 0; // keep reading to the end, keeping nothing
      });
      stream.on('end', () => {
        const fileName = cleanFileName(info.filename ?? '');
        file = { fileName, declaredType: info.mimeType, bytes: Buffer.concat(chunks) };
      });
    });
    parser.on('error', (error: Error) => reject(new AppError('MALFORMED_REQUEST', { detail: error.message })));
    parser.on('close', () => {
      if (fieldTooLong) {
        reject(new AppError('VALIDATION_FAILED', { pointer: `/${fieldTooLong}`, detail: 'field is too long' }));
        return;
      }
      // The form's text fields meet the same rule as JSON strings (core/http/invalid-characters.ts).
      const invalid = Object.entries(fields).filter(
        ([name, value]) => hasInvalidCharacters(name) || hasInvalidCharacters(value),
      );
      if (invalid.length > 0) {
        reject(
          AppError.invalid(invalid.map(([name]): FieldError => ({ code: 'INVALID_CHARACTERS', pointer: `/${name}` }))),
        );
        return;
      }
      resolve({ form: { fields, file }, tooLarge });
    });
    req.on('aborted', () => reject(new AppError('MALFORMED_REQUEST', { detail: 'upload aborted' })));
    req.pipe(parser);
  });
}

/** Marks multipart/form-data requests; the route reads them (see MultipartRequest). */
export function multipartBody(): Middleware {
  return async (ctx: Context, next: Next) => {
    if (['POST', 'PUT', 'PATCH'].includes(ctx.method) && ctx.is('multipart/form-data')) {
      ctx.request.body = new MultipartRequest(ctx.req);
    }
    return next();
  };
}
