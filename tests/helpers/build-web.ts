import { execFileSync } from 'node:child_process';
import path from 'node:path';

/** Builds web/dist when it is missing or stale, so browser tests exercise the same bundle `npm start` serves. */
export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/ensure-web-build.ts'], { cwd: root, stdio: 'inherit' });
}
