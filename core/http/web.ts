import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import serve from 'koa-static';

/**
 * The built workbench (npm run build writes it; npm start builds it when missing or stale). KEIYAKU_WEB_DIST points
 * elsewhere, so that several checkouts' browser tests on one machine do not rebuild each other's bundle.
 */
export const WEB_DIST = process.env.KEIYAKU_WEB_DIST
  ? path.resolve(process.env.KEIYAKU_WEB_DIST)
  : path.resolve(import.meta.dirname, '../../web/dist');

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // React's style attributes (toast width, for one) are inline styles.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

const API_PREFIXES = ['/core/', '/healthz', '/readyz'];

/**
 * Serves the built workbench: hashed assets with long caching, and index.html for every other GET that asks for a
 * page, so client-side routes (/login, /business-flows/…) load on reload. API paths are never answered here.
 */
export function webApp(dist = WEB_DIST): Middleware | null {
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) return null;
  const index = readFileSync(indexFile);
  const assets = serve(dist, {
    index: false,
    setHeaders: (res, file) => {
      const hashed = file.includes(`${path.sep}assets${path.sep}`);
      res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  return async (ctx, next) => {
    if (API_PREFIXES.some((prefix) => ctx.path.startsWith(prefix))) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    await assets(ctx, async () => {});
    if (ctx.body !== undefined && ctx.body !== null) return;
    if (path.extname(ctx.path) !== '' || !ctx.accepts('html')) return next();
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', CSP);
    ctx.body = index;
  };
}
