/*
 * The API reference at /docs: openapi.yaml rendered in the browser by Redoc's standalone bundle, served from
 * node_modules (no CDN), with the contract itself at /docs/openapi.yaml. The page has its own Content-Security-Policy,
 * relaxed only here: Redoc injects <style> elements and runs its search index in a Worker made from a blob: URL.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Middleware } from 'koa';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Keiyaku API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<div id="reference"></div>
<script src="/docs/redoc.standalone.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// An inline script would need 'unsafe-inline' in script-src: the start-up call is a file of its own.
const INIT = `Redoc.init('/docs/openapi.yaml', {
  hideDownloadButton: false,
  expandResponses: '200,201',
  jsonSampleExpandLevel: 3,
  sortPropsAlphabetically: false,
}, document.getElementById('reference'));
`;

// Redoc 2.5's side menu always shows an attribution logo loaded from Redocly's CDN; pointed at an empty data: URL the
// image fails and Redoc hides it (its onError), so the page fetches nothing from elsewhere (tests/e2e/api-docs.test.ts).
const REMOTE_IMAGES = ['https://cdn.redoc.ly/redoc/logo-mini.svg'];

function withoutRemoteImages(source: string): string {
  return REMOTE_IMAGES.reduce((code, url) => code.split(url).join('data:,'), source);
}

/** The contract file (openapi.yaml at the repository root) and Redoc's standalone bundle. */
export interface ApiDocsFiles {
  contractPath: string | URL;
  bundlePath?: string;
}

/** Serves /docs (the page), /docs/openapi.yaml, /docs/redoc.standalone.js and /docs/init.js; GET and HEAD only. */
export function apiDocs(files: ApiDocsFiles): Middleware {
  const bundlePath = files.bundlePath ?? createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  // Read once at start: the contract and the bundle do not change while the process runs.
  const contract = readFileSync(files.contractPath);
  const bundle = withoutRemoteImages(readFileSync(bundlePath, 'utf8'));
  const routes: Record<string, { type: string; body: Buffer | string; cache: string }> = {
    '/docs': { type: 'text/html; charset=utf-8', body: PAGE, cache: 'no-cache' },
    '/docs/': { type: 'text/html; charset=utf-8', body: PAGE, cache: 'no-cache' },
    '/docs/openapi.yaml': { type: 'application/yaml; charset=utf-8', body: contract, cache: 'no-cache' },
    '/docs/init.js': { type: 'text/javascript; charset=utf-8', body: INIT, cache: 'no-cache' },
    '/docs/redoc.standalone.js': {
      type: 'text/javascript; charset=utf-8',
      body: bundle,
      cache: 'public, max-age=3600',
    },
  };
  return async (ctx, next) => {
    const route = routes[ctx.path];
    if (!route || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return next();
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('Cache-Control', route.cache);
    ctx.type = route.type;
    ctx.body = route.body;
  };
}
