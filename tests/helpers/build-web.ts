import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds web/dist when it is missing or stale, so browser tests exercise the same bundle `npm start` serves. */
export default function setup(): void {
  // API-only runs (KEIYAKU_SKIP_WEB_BUILD=1) need no bundle; browser tests never set it.
  if (process.env.KEIYAKU_SKIP_WEB_BUILD === '1') return;
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-web-build.ts'], { cwd: root, stdio: 'inherit' });
}
