import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { Contract } from './contract/document.ts';
import { contractFile } from './contract/document.ts';
import { apiDocs } from './http/api-docs.ts';
import { AppError } from './http/errors.ts';
import { csvBody } from './http/csv-body.ts';
import { formBody } from './http/form-body.ts';
import { errorMapper, securityHeaders, traceContext } from './http/middleware.ts';
import { multipartBody } from './http/multipart-body.ts';
import { webApp } from './http/web.ts';
import type { RequestContext } from './http/context.ts';
import type { Middleware } from 'koa';

/**
 * Builds the Koa app. The middleware order is the request pipeline of DESIGN.md, read top to bottom; the
 * per-route steps (authentication, IP, plan, permission, validation) run inside `api` (core/contract/router.ts).
 */
export function buildApp(options: {
  config: Config;
  logger: Logger;
  contract: Contract;
  api: Middleware;
  inFlight: InFlightRequests;
  /** Protocol endpoints outside the contract (the built-in TSA, the local CA's certificate and CRL). */
  protocols?: Middleware;
  /** Times every request for GET /metrics (core/http/metrics.ts). */
  metrics?: Middleware;
}): Koa {
  const { config, logger, contract, api, inFlight } = options;
  // Koa's proxy mode believes the leftmost X-Forwarded-For from anyone: traceContext resolves the client instead.
  const app = new Koa({ proxy: false });
  app.silent = true; // errorMapper logs every error with its traceId

  app.use(inFlight.middleware());
  if (options.metrics) app.use(options.metrics);
  app.use(traceContext(logger, config.trustedProxies));
  app.use(errorMapper());
  app.use(securityHeaders());
  if (config.role === 'worker') app.use(healthOnly());
  if (options.protocols) app.use(options.protocols);
  app.use(apiDocs({ contractPath: contractFile })); // the API reference at /docs, with its own CSP
  app.use(csvBody()); // raw bytes for CSV imports, up to 10 MB; JSON goes on to the parser below
  app.use(multipartBody()); // file uploads: read by the route, with its upload place's size limit
  app.use(formBody()); // form posts (carrier webhooks): only operations that declare them read one
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: '1mb',
      encoding: 'utf-8',
    }),
  );
  if (config.validateResponses) app.use(responseCheck(contract));
  app.use(api);
  const web = webApp();
  if (web) app.use(web);
  else logger.warn('web/dist is missing: serving the API only (npm run build makes the workbench)');
  return app;
}

/** What a worker process answers: a load balancer's or Prometheus's probes, nothing a user asks. */
const WORKER_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** A worker process (KEIYAKU_ROLE=worker) serves no API and no workbench: anything but its probes is 404. */
function healthOnly(): Middleware {
  return async (ctx, next) => {
    if (!WORKER_PATHS.has(ctx.path)) throw new AppError('ROUTE_NOT_FOUND');
    await next();
  };
}

/** In development and tests, logs any response that breaks the contract (tests also check on their side). */
function responseCheck(contract: Contract): Middleware {
  return async (ctx, next) => {
    await next();
    const op = ctx.state.operation;
    if (!op) return;
    const problems = contract.validateResponse(op, ctx.status, ctx.response.type || null, ctx.body);
    if (problems.length > 0) (ctx.state.req as RequestContext).log.error({ problems }, 'response breaks the contract');
  };
}

/** Counts requests still being handled, so shutdown can let them finish before the database closes. */
export class InFlightRequests {
  private count = 0;
  private waiters: (() => void)[] = [];

  middleware(): Middleware {
    return async (_ctx, next) => {
      this.count += 1;
      try {
        await next();
      } finally {
        this.count -= 1;
        if (this.count === 0) this.waiters.splice(0).forEach((resolve) => resolve());
      }
    };
  }

  /** Resolves when no request is in flight, or after `timeoutMs` (a handler stuck for good must not block exit). */
  drained(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      timer.unref();
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
