import type { Context, Middleware, Next } from 'koa';
import { AppError } from './errors.ts';

/** The largest CSV upload accepted (batch imports), in bytes. */
export const CSV_BODY_LIMIT = 10 * 1024 * 1024;

/**
 * Reads a `text/csv` request body as raw bytes (the CSV import decodes UTF-8 or Shift_JIS itself), up to `limit`
 * bytes; larger bodies are 413 REQUEST_TOO_LARGE. Other content types pass through to the JSON body parser.
 */
export function csvBody(limit = CSV_BODY_LIMIT): Middleware {
  return async (ctx: Context, next: Next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method) || !ctx.is('text/csv')) return next();
    ctx.request.body = await readRawBody(ctx, limit);
    return next();
  };
}

/** Reads the whole request body, up to `limit` bytes (declared or counted); more is 413 REQUEST_TOO_LARGE. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || '0');
  if (declared > limit) throw new AppError('REQUEST_TOO_LARGE');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw new AppError('REQUEST_TOO_LARGE');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
