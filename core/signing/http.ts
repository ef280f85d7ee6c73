/*
 * The protocol endpoints of the embedded PKI, outside the JSON:API contract: the built-in TSA (RFC 3161 §3.4,
 * POST /tsa with application/timestamp-query, answered with application/timestamp-reply) and the local CA's
 * certificate and CRL (GET /pki/local-ca.crt, /pki/local-ca.crl), so other software can validate what we sign.
 */
import type { Middleware } from 'koa';
import type { Clock } from '../clock.ts';
import type { SigningEngine } from './engine.ts';
import { respondToTimestampRequest } from './tsa.ts';

const MAX_REQUEST_BYTES = 16 * 1024;

export function pkiProtocolRoutes(engine: SigningEngine, clock: Clock): Middleware {
  return async (ctx, next) => {
    if (ctx.path === '/tsa' && ctx.method === 'POST') {
      if (!ctx.is('application/timestamp-query')) {
        ctx.status = 415;
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_REQUEST_BYTES) {
          ctx.status = 413;
          return;
        }
        chunks.push(chunk);
      }
      const reply = await respondToTimestampRequest(
        Buffer.concat(chunks),
        await engine.pki.key('local-tsa'),
        clock.now(),
      );
      ctx.type = 'application/timestamp-reply';
      ctx.body = Buffer.from(reply);
      return;
    }
    if (ctx.method === 'GET' && ctx.path === '/pki/local-ca.crt') {
      ctx.type = 'application/pkix-cert';
      ctx.body = Buffer.from((await engine.pki.key('local-ca')).certificate);
      return;
    }
    if (ctx.method === 'GET' && ctx.path === '/pki/local-ca.crl') {
      ctx.type = 'application/pkix-crl';
      ctx.body = Buffer.from(await engine.pki.crl());
      return;
    }
    await next();
  };
}
