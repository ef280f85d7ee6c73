import { randomUUID } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import type { Logger } from 'pino';
import { AppError, toJsonApiErrors } from './errors.ts';
import { clientAddress } from './client-address.ts';
import { negotiateLocale, type RequestContext } from './context.ts';

/** Paths machines poll: logged at debug when they answer well. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

const TRACE_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * Takes X-Request-Id (when sane) or makes a new one; every response and log line carries it. Resolves the client's
 * address and protocol through the trusted proxies (core/http/client-address.ts): `req.ip`, `ctx.ip` and
 * `ctx.secure` hold them from here on.
 */
export function traceContext(logger: Logger, trustedProxies: readonly string[]): Middleware {
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    const traceId = TRACE_ID.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', traceId);
    const client = clientAddress(
      {
        peer: ctx.req.socket.remoteAddress,
        encrypted: Boolean((ctx.req.socket as { encrypted?: boolean }).encrypted),
        forwardedFor: ctx.get('x-forwarded-for') || undefined,
        forwardedProto: ctx.get('x-forwarded-proto') || undefined,
      },
      trustedProxies,
    );
    // Koa's ctx.ip, ctx.protocol and ctx.secure (and the Secure flag of cookies) now tell the resolved client.
    ctx.request.ip = client.ip;
    Object.defineProperty(ctx.request, 'protocol', { value: client.secure ? 'https' : 'http', configurable: true });
    const req: RequestContext = {
      traceId,
      locale: negotiateLocale(ctx.get('accept-language') || undefined),
      ip: client.ip,
      userAgent: ctx.get('user-agent'),
      log: logger.child({ traceId }),
      principal: null,
    };
    ctx.state.req = req;
    const started = performance.now();
    try {
      await next();
    } finally {
      const ms = Math.round((performance.now() - started) * 10) / 10;
      // Probes and scrapes (a load balancer's /healthz every few seconds, Prometheus' /metrics) at debug: at info they
      // would bury the requests people make. A failing one still shows.
      const routine = PROBE_PATHS.has(ctx.path) && ctx.status < 400;
      req.log[routine ? 'debug' : 'info']({ method: ctx.method, path: ctx.path, status: ctx.status, ms }, 'request');
    }
  };
}

function fromHttpError(error: { status?: number; expose?: boolean; type?: string }): AppError | null {
  switch (error.status) {
    case 400:
      return new AppError('MALFORMED_REQUEST');
    case 413:
      return new AppError('REQUEST_TOO_LARGE');
    case 415:
      return new AppError('UNSUPPORTED_MEDIA_TYPE');
    default:
      return null;
  }
}

/**
 * A unique violation no module mapped (PostgreSQL 23505): two requests created the same unique value at once and
 * this one lost the race. The spec's "Registered by another user." (409 REGISTERED_BY_ANOTHER_USER), not a 500.
 */
function fromUniqueViolation(error: unknown): AppError | null {
  if ((error as { code?: unknown } | null)?.code !== '23505') return null;
  return new AppError('REGISTERED_BY_ANOTHER_USER', { cause: error });
}

/** The one place errors become responses: AppErrors by the catalogue, anything else a 500 that tells nothing. */
export function errorMapper(): Middleware {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new AppError('ROUTE_NOT_FOUND');
      if (ctx.status === 405 && ctx.body === undefined) throw new AppError('METHOD_NOT_ALLOWED');
    } catch (thrown) {
      const req: RequestContext = ctx.state.req;
      let error = thrown instanceof AppError ? thrown : (fromHttpError(thrown as never) ?? fromUniqueViolation(thrown));
      if (!error) {
        req.log.error({ err: thrown }, 'unhandled error');
        error = new AppError('INTERNAL_ERROR');
      } else if (error.status >= 500) {
        req.log.error({ err: error.cause ?? error, code: error.code }, 'server error');
      }
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers)) ctx.set(name, value);
      ctx.type = 'application/vnd.api+json';
      ctx.body = toJsonApiErrors(error, req.locale, req.traceId);
    }
  };
}

/** One year with subdomains: the values the browsers' HSTS preload list asks for. */
const HSTS = 'max-age=31536000; includeSubDomains';

/**
 * Conservative headers for an API that also serves the workbench. HSTS only over TLS (the service's own, or a
 * trusted proxy's X-Forwarded-Proto: https): browsers ignore it over plain HTTP, and a development server on
 * http://localhost must not pin itself.
 */
export function securityHeaders(): Middleware {
  return async (ctx: Context, next: Next) => {
    if (ctx.secure) ctx.set('Strict-Transport-Security', HSTS);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Referrer-Policy', 'same-origin');
    ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
    if (ctx.path.startsWith('/core/')) ctx.set('Cache-Control', 'no-store');
    await next();
  };
}
