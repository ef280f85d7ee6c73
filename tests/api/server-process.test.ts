import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-process-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts `npm start`'s entry point as its own process on the embedded default, as a newcomer would. */
async function start(port: number): Promise<{ child: ChildProcess; output: () => string }> {
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/server.ts'], {
    cwd: root,
    env: { ...env, PORT: String(port), KEIYAKU_DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  // Loaded machines: tsx compiles the service as it loads it (10 s alone, 45 s and more while the suite runs).
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (ready?.ok) return { child, output: () => output };
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

const json = (body: unknown) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('the service process on the embedded default', () => {
  it('starts with no configuration, keeps data across restarts and stops gracefully on SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/core/v1`;
    const first = await start(port);
    const terms = (await (await fetch(`${base}/terms/current`)).json()) as { data: { id: string } };
    const signUp = await fetch(
      `${base}/signup`,
      json({
        data: {
          type: 'SignUp',
          attributes: {
            organizationName: '再起動テスト株式会社',
            loginId: 'restart-owner',
            userName: '再起動 太郎',
            email: 'restart@example.com',
            password: 'restart-pass1',
            passwordConfirmation: 'restart-pass1',
            acceptTermId: terms.data.id,
          },
        },
      }),
    );
    expect(signUp.status).toBe(201);
    expect(statSync(path.join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);

    const stopping = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await stopping).toBe(0);
    expect(first.output()).toContain('"msg":"stopped"');

    const second = await start(port);
    try {
      const signIn = await fetch(
        base.replace(/\/core\/v1$/, '/core/v1/auth'),
        json({ data: { type: 'Auth', attributes: { loginId: 'restart-owner', password: 'restart-pass1' } } }),
      );
      expect(signIn.status).toBe(201);
    } finally {
      const done = exited(second.child);
      second.child.kill('SIGTERM');
      expect(await done).toBe(0);
    }
  }, 240_000);
});
