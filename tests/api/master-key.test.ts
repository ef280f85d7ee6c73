/*
 * The master key check: a service started with another master key than its database was created with refuses to
 * start (createService rejects, `npm start` exits 78 with a message naming the fix) instead of answering 500 at
 * every signature; the right key starts. A database from before the check is verified by one of its sealed secrets.
 * The embedded default's data folder and its sub-folders end up 0700 even when they existed with looser modes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { loadConfig } from '../../core/config.ts';
import { keyCheckValue, MasterKeyMismatchError } from '../../core/crypto/key-check.ts';
import { type Database, openDatabase } from '../../core/db/index.ts';
import { createLogger } from '../../core/log.ts';
import { OutgoingMessages } from '../../core/mail/outgoing.ts';
import { createService } from '../../core/service.ts';
import { isolatedDatabase } from '../helpers/databases.ts';

const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'keiyaku-master-key-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const newKey = () => randomBytes(32).toString('base64');

/** Starts the service in this process on `database` with `key`; closes it again when it started. */
async function startWith(database: Database, key: string): Promise<void> {
  const dataDir = mkdtempSync(path.join(work, 'data-'));
  const config = loadConfig({ KEIYAKU_DATA_DIR: dataDir, KEIYAKU_MASTER_KEY: key, LOG_LEVEL: 'silent' });
  const service = await createService(config, {
    database,
    logger: createLogger('silent'),
    plugins: [],
    jobPollingSeconds: 0.5,
  });
  expect(await service.ready()).toMatchObject({ database: 'ok', migrations: 'ok' });
  await service.close();
}

async function withDatabase(work: (database: Database) => Promise<void>): Promise<void> {
  const isolated = await isolatedDatabase(inject('dbKind'), inject('dbTemplate'));
  const database = await openDatabase(isolated.config);
  try {
    await work(database);
  } finally {
    await database.close();
    await isolated.drop();
  }
}

describe('the master key check in createService', () => {
  it('stores the key check value on first start, refuses another key with a clear error, and starts with the right one', async () => {
    await withDatabase(async (database) => {
      const right = newKey();
      await startWith(database, right);
      const stored = await database.knex('master_key_check').select('value');
      expect(stored).toEqual([{ value: keyCheckValue(Buffer.from(right, 'base64')) }]);
      expect(stored[0].value).not.toContain(Buffer.from(right, 'base64').toString('hex'));

      const refused = startWith(database, newKey());
      await expect(refused).rejects.toBeInstanceOf(MasterKeyMismatchError);
      await expect(refused).rejects.toThrow(
        /^KEIYAKU_MASTER_KEY does not match the key this database was created with \(key check value mismatch\)\. Start the service with the master key/,
      );

      await startWith(database, right);
    });
  });

  it('verifies a database from before the check by one of its sealed secrets, then stores the value', async () => {
    await withDatabase(async (database) => {
      const right = newKey();
      await startWith(database, right);
      // A message waiting with a sealed secret, as an earlier version would leave it, and no key check value.
      const messages = new OutgoingMessages(database.knex, Buffer.from(right, 'base64'), new ManualClock());
      await database.knex.transaction((trx) =>
        messages.insert(trx, {
          channel: 'mail',
          kind: 'password-reset',
          to: 'upgrade@example.com',
          locale: 'ja',
          params: { minutes: '30', link: 'https://keiyaku.example/forget-password/reset?token=t' },
          secretNames: ['link'],
          organizationId: null,
          userId: null,
        }),
      );
      await database.knex('master_key_check').delete();

      await expect(startWith(database, newKey())).rejects.toThrow(
        /does not match the key this database was created with \(a secret stored in outgoing_messages does not open with it\)/,
      );
      expect(await database.knex('master_key_check').select('value')).toEqual([]);

      await startWith(database, right);
      expect(await database.knex('master_key_check').select('value')).toEqual([
        { value: keyCheckValue(Buffer.from(right, 'base64')) },
      ]);
    });
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** `npm start`'s entry point as its own process on the embedded default, under a umask of 000. */
function spawnServer(dataDir: string, port: number, env: Record<string, string> = {}) {
  const { DATABASE_URL: _url, KEIYAKU_MASTER_KEY: _key, ...inherited } = process.env;
  const child = spawn(
    '/bin/sh',
    ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, '--import', 'tsx', 'core/server.ts'],
    {
      cwd: root,
      env: { ...inherited, PORT: String(port), KEIYAKU_DATA_DIR: dataDir, LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

async function untilReady(server: ReturnType<typeof spawnServer>, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) throw new Error(`server exited early:\n${server.output()}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (ready?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  server.child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${server.output()}`);
}

async function stop(server: { child: ChildProcess; exited: Promise<number | null> }): Promise<void> {
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);
}

describe('the service process on the embedded default', () => {
  it('narrows its data folders to 0700, exits 78 naming the fix under another master key, and starts with its own', async () => {
    const dataDir = path.join(work, 'process-data');
    // Folders an earlier version left readable by everyone.
    for (const folder of [dataDir, path.join(dataDir, 'blobs'), path.join(dataDir, 'outbox')]) {
      mkdirSync(folder, { recursive: true });
      chmodSync(folder, 0o755);
    }
    const port = await freePort();
    const first = spawnServer(dataDir, port);
    await untilReady(first, port);
    for (const folder of ['.', 'pgdata', 'blobs', 'outbox']) {
      expect(statSync(path.join(dataDir, folder)).mode & 0o777, folder).toBe(0o700);
    }
    expect(statSync(path.join(dataDir, 'master.key')).mode & 0o777).toBe(0o600);
    await stop(first);

    const wrong = spawnServer(dataDir, port, { KEIYAKU_MASTER_KEY: newKey() });
    expect(await wrong.exited).toBe(78);
    expect(wrong.output()).toContain(
      'Configuration error: KEIYAKU_MASTER_KEY does not match the key this database was created with (key check value mismatch).',
    );
    expect(wrong.output()).toContain('the master.key file of its data folder');
    expect(await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null)).toBeNull();

    const again = spawnServer(dataDir, port);
    await untilReady(again, port);
    await stop(again);
  }, 180_000);
});
