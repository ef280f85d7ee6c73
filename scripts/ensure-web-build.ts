// Builds the workbench (web/dist) and the compiled server (dist/server) before `npm start` when either is missing or
// older than its sources, so a fresh clone's `npm install && npm start` serves the UI and runs plain JavaScript
// without a separate step, and a restart without changes costs nothing.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { buildServer, serverBuildStale } from './build-server.ts';

const root = path.resolve(import.meta.dirname, '..');
const web = path.join(root, 'web');
const built = path.join(
  process.env.KEIYAKU_WEB_DIST ? path.resolve(process.env.KEIYAKU_WEB_DIST) : path.join(web, 'dist'),
  'index.html',
);

function newestMtime(entry: string): number {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newestMtime(path.join(entry, name))));
}

const sources = [
  path.join(web, 'src'),
  path.join(web, 'public'),
  path.join(web, 'index.html'),
  path.join(web, 'vite.config.ts'),
  path.join(root, 'core/contract/api.gen.ts'),
  path.join(root, 'package-lock.json'),
];

const stale = !existsSync(built) || Math.max(...sources.map(newestMtime)) > statSync(built).mtimeMs;
if (stale) {
  console.log('Building the web workbench (web/dist) ...');
  // Imported only when needed: a production install without dev dependencies ships a prebuilt web/dist.
  const { build } = await import('vite');
  await build({ configFile: path.join(web, 'vite.config.ts'), logLevel: 'warn' });
}

if (serverBuildStale()) {
  console.log('Compiling the server (dist/server) ...');
  await buildServer();
}
