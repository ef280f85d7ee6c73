/**
 * The JavaScript (and CSS) the sign-in page (/login) loads before the user can interact, from the production build
 * in web/dist, gzipped at level 9: part of `npm run bench`, or on its own with `node --import tsx bench/web-size.ts`.
 *
 * Every page route is served the same index.html, so /login loads its entry script, the modulepreload links and the
 * stylesheets it names, and every chunk the entry imports statically (transitively). Dynamic imports (the lazy
 * screens of the other routes) are not followed: /login renders from the main chunk. web/dist is built first when
 * it is missing or older than its sources (scripts/ensure-web-build.ts), so the figure is that of the current code.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../core/http/web.ts';

// The folder the service serves (web/dist, or KEIYAKU_WEB_DIST).
export { WEB_DIST };

export interface AssetSize {
  /** The URL path the page requests, e.g. /assets/index-abc123.js. */
  file: string;
  kind: 'js' | 'css';
  bytes: number;
  gzipBytes: number;
  /** How the page reaches it: the entry script, a modulepreload link, a static import only, or a stylesheet. */
  via: 'entry' | 'modulepreload' | 'static import' | 'stylesheet';
}

export interface LoginRouteSize {
  assets: AssetSize[];
  js: { bytes: number; gzipBytes: number };
  css: { bytes: number; gzipBytes: number };
  /** Chunks reached by static imports that index.html does not preload (normally none). */
  notPreloaded: string[];
}

/** Attribute values of the tags in index.html that match `tag` and carry `attribute`. */
function tagAttributes(html: string, tag: RegExp, attribute: string): string[] {
  const values: string[] = [];
  for (const match of html.matchAll(tag)) {
    const value = new RegExp(`\\s${attribute}=["']([^"']+)["']`).exec(match[0])?.[1];
    if (value) values.push(value);
  }
  return values;
}

/**
 * The static imports of a built ES module: `import{a as b}from"./x.js"`, `import * as x from "./x.js"`,
 * `import"./x.js"` and `export{a}from"./x.js"`; never `import("./x.js")`, which loads on demand.
 */
export function staticImports(code: string): string[] {
  const pattern = /(?:^|[\s;})])(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'`]([^"'`\s]+\.js)["'`]/g;
  return [...code.matchAll(pattern)].map((match) => match[1]!);
}

/** The URL path of `specifier` imported from the module at URL path `from`. */
function resolveUrl(specifier: string, from: string): string {
  return new URL(specifier, `http://keiyaku.invalid${from}`).pathname;
}

function fileOf(dist: string, urlPath: string): string {
  return path.join(dist, ...urlPath.split('/').filter(Boolean));
}

/** Every file /login loads before interaction, with its raw and gzip (level 9) size. */
export function measureLoginRoute(dist = WEB_DIST): LoginRouteSize {
  const indexFile = path.join(dist, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: run npm run build`);
  const html = readFileSync(indexFile, 'utf8');
  const entries = tagAttributes(html, /<script\b[^>]*type=["']module["'][^>]*>/g, 'src');
  const preloads = tagAttributes(html, /<link\b[^>]*rel=["']modulepreload["'][^>]*>/g, 'href');
  const styles = tagAttributes(html, /<link\b[^>]*rel=["']stylesheet["'][^>]*>/g, 'href');
  if (entries.length === 0) throw new Error(`no module script in ${indexFile}`);

  const via = new Map<string, AssetSize['via']>();
  for (const entry of entries) via.set(entry, 'entry');
  for (const preload of preloads) if (!via.has(preload)) via.set(preload, 'modulepreload');
  const queue = [...via.keys()];
  const notPreloaded: string[] = [];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const specifier of staticImports(readFileSync(fileOf(dist, current), 'utf8'))) {
      const imported = resolveUrl(specifier, current);
      if (via.has(imported)) continue;
      via.set(imported, 'static import');
      notPreloaded.push(imported);
      queue.push(imported);
    }
  }
  for (const style of styles) via.set(style, 'stylesheet');

  const assets = [...via].map(([file, how]): AssetSize => {
    const content = readFileSync(fileOf(dist, file));
    return {
      file,
      kind: file.endsWith('.css') ? 'css' : 'js',
      bytes: content.length,
      gzipBytes: gzipSync(content, { level: 9 }).length,
      via: how,
    };
  });
  const total = (kind: AssetSize['kind']) =>
    assets
      .filter((asset) => asset.kind === kind)
      .reduce((sum, asset) => ({ bytes: sum.bytes + asset.bytes, gzipBytes: sum.gzipBytes + asset.gzipBytes }), {
        bytes: 0,
        gzipBytes: 0,
      });
  assets.sort((a, b) => a.kind.localeCompare(b.kind) * -1 || b.gzipBytes - a.gzipBytes);
  return { assets, js: total('js'), css: total('css'), notPreloaded };
}

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

export function formatLoginRouteSize(size: LoginRouteSize): string {
  const rows = [
    ['file', 'loaded as', 'raw', 'gzip -9'],
    ...size.assets.map((asset) => [asset.file, asset.via, kB(asset.bytes), kB(asset.gzipBytes)]),
    [
      'JS total',
      `${size.assets.filter((a) => a.kind === 'js').length} files`,
      kB(size.js.bytes),
      kB(size.js.gzipBytes),
    ],
    ['CSS total', '', kB(size.css.bytes), kB(size.css.gzipBytes)],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row.map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('   ');
  const out = [
    '',
    'Workbench /login: what the page loads before interaction (web/dist production build, gzip level 9)',
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('   '),
    ...rows.slice(1, -2).map(line),
    widths.map((w) => '-'.repeat(w)).join('   '),
    ...rows.slice(-2).map(line),
    '',
    `Login route JS (gzip): ${kB(size.js.gzipBytes)} (${size.js.gzipBytes.toLocaleString('en-US')} bytes); ` +
      `CSS (gzip): ${kB(size.css.gzipBytes)}`,
  ];
  if (size.notPreloaded.length > 0) {
    out.push(`Statically imported but not preloaded by index.html: ${size.notPreloaded.join(', ')}`);
  }
  return out.join('\n');
}

/** Builds web/dist when stale, then prints the table. */
export async function reportLoginRouteSize(): Promise<LoginRouteSize> {
  await import('../scripts/ensure-web-build.ts');
  const size = measureLoginRoute();
  console.log(formatLoginRouteSize(size));
  return size;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  reportLoginRouteSize().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
