// Compiles the server (core/, plugins/, migrations/) to plain JavaScript in dist/server/, one file per source file,
// so `npm start` runs without tsx transpiling ~every module on each start. Per-file output keeps the layout the code
// relies on: migration folders listed at run time, the PDF worker file next to the pool, and files read relative to
// import.meta.url (config/plans.json, openapi.yaml, web/dist, reached through a copy or a link next to the output).
// `npm run dev` and the tests keep running the TypeScript through tsx.
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { parse as parseYaml } from 'yaml';
import { buildDbTemplate } from './build-db-template.ts';

export const root = path.resolve(import.meta.dirname, '..');
export const serverDist = path.join(root, 'dist', 'server');
/** Written last: its mtime is the build's, and its absence means an unfinished build. */
export const serverStamp = path.join(serverDist, '.built');
/** The compiled `npm start` entry point. */
export const serverEntry = path.join(serverDist, 'core', 'server.js');

/** What the compiled server is made from: a change to any of them makes the build stale. */
export const serverSources = [
  path.join(root, 'core'),
  path.join(root, 'plugins'),
  path.join(root, 'migrations'),
  path.join(root, 'config'),
  path.join(root, 'openapi.yaml'),
  path.join(root, 'package-lock.json'),
  path.join(root, 'tsconfig.json'),
  path.join(root, 'scripts', 'build-server.ts'),
  path.join(root, 'scripts', 'build-db-template.ts'),
];

const SOURCE_FOLDERS = ['core', 'plugins', 'migrations'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    if (!entry.name.endsWith('.ts') || entry.name.endsWith('.d.ts') || entry.name.endsWith('.test.ts')) return [];
    return [full];
  });
}

/** Relative import specifiers name the .ts files (allowImportingTsExtensions); the output imports the .js ones. */
const TS_SPECIFIER = /((?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"])(\.{1,2}\/[^'"]+?)\.ts(['"])/g;

function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return jsFiles(full);
    return entry.name.endsWith('.js') ? [full] : [];
  });
}

/**
 * Builds into a folder of its own, then swaps it in: a server already running from dist/server keeps its files
 * until the swap, and two starts building at once (parallel tests) do not write into each other's output.
 */
export async function buildServer(): Promise<void> {
  const out = `${serverDist}.${process.pid}-${Date.now()}`;
  try {
    await buildInto(out);
    rmSync(serverDist, { recursive: true, force: true });
    renameSync(out, serverDist);
  } catch (error) {
    // A concurrent build swapped its output in first: that one is as fresh as this one.
    if ((error as NodeJS.ErrnoException).code !== 'ENOTEMPTY' && (error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw error;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

async function buildInto(serverDist: string): Promise<void> {
  const entryPoints = SOURCE_FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder)));
  await build({
    entryPoints,
    outdir: serverDist,
    outbase: root,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    logLevel: 'warning',
  });
  for (const file of jsFiles(serverDist)) {
    const text = readFileSync(file, 'utf8');
    const rewritten = text.replace(TS_SPECIFIER, '$1$2.js$3');
    if (rewritten !== text) writeFileSync(file, rewritten);
  }
  // The PDF worker thread's entry: under tsx it loads worker.ts through tsx's API; compiled, it imports worker.js.
  writeFileSync(
    path.join(serverDist, 'core', 'pdf-work', 'worker.mjs'),
    "// Entry of a PDF worker thread (compiled build).\nimport worker from './worker.js';\n\nexport default worker;\n",
  );
  // Files the code reads relative to its own location: the small ones copied, the workbench linked (it may be
  // rebuilt after the server, and is large).
  cpSync(path.join(root, 'config'), path.join(serverDist, 'config'), { recursive: true });
  copyFileSync(path.join(root, 'openapi.yaml'), path.join(serverDist, 'openapi.yaml'));
  // The contract parsed once here: the server reads this JSON instead of parsing the YAML at every start.
  writeFileSync(
    path.join(serverDist, 'openapi.json'),
    JSON.stringify(parseYaml(readFileSync(path.join(root, 'openapi.yaml'), 'utf8'))),
  );
  mkdirSync(path.join(serverDist, 'web'), { recursive: true });
  symlinkSync(path.join(root, 'web', 'dist'), path.join(serverDist, 'web', 'dist'), 'dir');
  // The prepared embedded database a new data folder starts from (built with the output just compiled).
  await buildDbTemplate(serverDist);
  writeFileSync(path.join(serverDist, '.built'), `${new Date().toISOString()}\n`);
}

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

/** Whether dist/server is missing, unfinished or older than any of its sources. */
export function serverBuildStale(): boolean {
  try {
    return Math.max(...serverSources.map(newestMtime)) > statSync(serverStamp).mtimeMs;
  } catch {
    return true;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = performance.now();
  await buildServer();
  console.log(`Built the server into dist/server in ${Math.round(performance.now() - started)} ms`);
}
