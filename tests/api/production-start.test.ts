/**
 * `npm start` runs the compiled server (dist/server, built by the prestart step when missing or stale): the real
 * command from package.json, as its own process on new data folders of the embedded default.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_TEMPLATE_FILE } from '../../scripts/build-db-template.ts';
import { buildServer, serverBuildStale, serverDist, serverEntry } from '../../scripts/build-server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const scratch = mkdtempSync(path.join(tmpdir(), 'keiyaku-production-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

beforeAll(async () => {
  if (serverBuildStale()) await buildServer();
}, 180_000);

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** package.json's `start` command, with `node` as this Node. */
function startCommand(): string[] {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } })
    .scripts;
  const [node, ...args] = scripts.start.split(/\s+/);
  expect(node).toBe('node');
  return args;
}

interface Running {
  child: ChildProcess;
  base: string;
  dataDir: string;
}

async function start(): Promise<Running> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(scratch, 'data-'));
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, startCommand(), {
    cwd: root,
    env: { ...env, PORT: String(port), KEIYAKU_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${errors}`);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
    if (health?.ok) return { child, base: `http://127.0.0.1:${port}/core/v1`, dataDir };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not answer /healthz:\n${errors}`);
}

function stop(running: Running): Promise<number | null> {
  return new Promise((resolve) => {
    running.child.once('exit', (code) => resolve(code));
    running.child.kill('SIGTERM');
  });
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('npm start (compiled server)', () => {
  it('runs JavaScript from dist/server, not TypeScript through tsx', () => {
    const args = startCommand();
    expect(args.some((arg) => arg.includes('tsx'))).toBe(false);
    expect(path.resolve(root, args.at(-1)!)).toBe(serverEntry);
    // A new embedded data folder starts from the prepared, migrated database of the build.
    expect(existsSync(path.join(serverDist, DB_TEMPLATE_FILE))).toBe(true);
  });

  it('serves a new data folder (sign-up, sign-in), and two new folders get their own secrets', async () => {
    const [one, two] = await Promise.all([start(), start()]);
    try {
      const terms = (await (await fetch(`${one.base}/terms/current`)).json()) as { data: { id: string } };
      const signUp = await fetch(
        `${one.base}/signup`,
        json({
          data: {
            type: 'SignUp',
            attributes: {
              organizationName: '本番起動テスト株式会社',
              loginId: 'production-owner',
              userName: '本番 花子',
              email: 'production@example.com',
              password: 'production-pass1',
              passwordConfirmation: 'production-pass1',
              acceptTermId: terms.data.id,
            },
          },
        }),
      );
      expect(signUp.status).toBe(201);
      const signIn = await fetch(
        `${one.base}/auth`,
        json({ data: { type: 'Auth', attributes: { loginId: 'production-owner', password: 'production-pass1' } } }),
      );
      expect(signIn.status).toBe(201);
      // The other install knows nothing of this one's account.
      const elsewhere = await fetch(
        `${two.base}/auth`,
        json({ data: { type: 'Auth', attributes: { loginId: 'production-owner', password: 'production-pass1' } } }),
      );
      expect(elsewhere.status).not.toBe(201);

      const keyOne = readFileSync(path.join(one.dataDir, 'master.key'), 'utf8').trim();
      const keyTwo = readFileSync(path.join(two.dataDir, 'master.key'), 'utf8').trim();
      expect(keyOne.length).toBeGreaterThan(0);
      expect(keyOne).not.toBe(keyTwo);
      // Both installs are ready: each first start stored its own master key check (none came with the template).
      expect(
        await Promise.all(
          [one, two].map(async (running) => (await fetch(`${running.base.replace(/\/core\/v1$/, '')}/readyz`)).status),
        ),
      ).toEqual([200, 200]);
    } finally {
      expect(await Promise.all([stop(one), stop(two)])).toEqual([0, 0]);
    }
  }, 120_000);
});
