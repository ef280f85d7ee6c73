import type { Context, Middleware, Next } from 'koa';
import { readRawBody } from './csv-body.ts';

/** The largest form body accepted (carrier status callbacks are a few hundred bytes), in bytes. */
export const FORM_BODY_LIMIT = 64 * 1024;

/**
 * An `application/x-www-form-urlencoded` request body, fields by name (a repeated field keeps its last value). Only
 * operations whose contract declares that media type read one (carrier webhooks post forms); every other operation
 * answers it with 415 UNSUPPORTED_MEDIA_TYPE (core/contract/router.ts).
 */
export class FormBody {
  constructor(readonly fields: Record<string, string>) {}
}

/**
 * Reads an `application/x-www-form-urlencoded` body (UTF-8) into a FormBody, up to `limit` bytes; larger bodies are
 * 413 REQUEST_TOO_LARGE. Other content types pass through to the next body reader.
 */
export function formBody(limit = FORM_BODY_LIMIT): Middleware {
  return async (ctx: Context, next: Next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(ctx.method) || !ctx.is('application/x-www-form-urlencoded')) return next();
    const raw = await readRawBody(ctx, limit);
    const fields: Record<string, string> = Object.create(null) as Record<string, string>;
    for (const [name, value] of new URLSearchParams(raw.toString('utf8'))) fields[name] = value;
    ctx.request.body = new FormBody(fields);
    return next();
  };
}
