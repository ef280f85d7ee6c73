/**
 * kill -9 of the real server process (core/server.ts as a child process), then a restart on the same database and
 * data folder, on PostgreSQL and on the embedded PGlite. At the kill a malware scan and a mail are running (their
 * peers hang), an upload is streaming its body, and a signature is being written (the kill comes as its blob lands
 * in the store). After the restart: the jobs complete within a minute, the document leaves DOCUMENT_BEING_SCANNED,
 * the signed revision is there whole (row, blob, ledger, a PDF qpdf accepts) or not at all, no row points at a
 * missing blob, and the sweeper leaves no temporary file and no orphan blob behind.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, watch, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Knex } from 'knex';
import { afterAll, expect } from 'vitest';
import { ManualClock } from '../../core/clock.ts';
import { loadConfig } from '../../core/config.ts';
import { loadContract } from '../../core/contract/document.ts';
import { openDatabase } from '../../core/db/index.ts';
import { LocalBlobStore } from '../../core/files/blob-store.ts';
import { createLogger } from '../../core/log.ts';
import { BUILT_IN_PLUGINS, createService } from '../../core/service.ts';
import type { TestApp } from './app.ts';
import { TestClient } from './client.ts';
import { uploadPdf } from './documents.ts';
import { buildNoisePdf } from './pdf.ts';
import { confirmEmailOf, qpdfCheck, signTaskCall } from './signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld, startTaskApp, type TaskWorld } from './tasks.ts';
import { freePort } from '../peers/clamd.ts';
import { SmtpSink } from '../peers/smtp-sink.ts';
import { startSilentServer, startTsaRelay } from '../peers/stalling-peers.ts';

const root = path.resolve(import.meta.dirname, '../..');
const TWO_HOURS = 2 * 3600_000;

/**
 * What the calling test file started (processes, peers, folders, databases), undone after its tests, newest first.
 * Files share this module (the workers reuse their module graph), so each file has its own list.
 */
export function useCleanups(): (() => Promise<unknown>)[] {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });
  return cleanups;
}
type Cleanups = ReturnType<typeof useCleanups>;

/** The data a server process is started on, seeded in this process first, and a way to read its database. */
export interface Seeded {
  app: TestApp;
  env: Record<string, string>;
  world: TaskWorld;
  signDocumentId: string;
  signTaskId: string;
  /** The database, opened for reading (PGlite: only while no server process has it). */
  withDatabase<T>(read: (knex: Knex) => Promise<T>): Promise<T>;
}

/** A sign task of the business-operator type, ready to sign, on a clean document. */
async function seedWorld(app: TestApp): Promise<Pick<Seeded, 'world' | 'signDocumentId' | 'signTaskId'>> {
  const world = await seedTaskWorld(app);
  await confirmEmailOf(app, world.userA1.id);
  const signDocumentId = await newDocument(app, world.ownerA.token, world.flowId, 'clean', '署名中に停止');
  const [task] = await plan(app, world.ownerA.token, signDocumentId, [
    groupTask(1, 'sign', world.g1, { signatureType: 'operator' }),
  ]);
  return { world, signDocumentId, signTaskId: task!.id };
}

/** A copy of the migrated PostgreSQL template; the seeding service is closed, its database kept. */
export async function seedPostgres(cleanups: Cleanups): Promise<Seeded> {
  const app = await startTaskApp();
  cleanups.push(() => app.close());
  const seeded = await seedWorld(app);
  await app.service.close();
  const { config, knex } = app.service.deps;
  return {
    app,
    ...seeded,
    env: {
      DATABASE_URL: (config.database as { url: string }).url,
      KEIYAKU_DATA_DIR: app.dataDir,
      KEIYAKU_MASTER_KEY: config.masterKey.toString('base64'),
    },
    withDatabase: (read) => read(knex),
  };
}

/** The embedded default: PGlite under <data folder>/pgdata, as `npm start` without DATABASE_URL has it. */
export async function seedEmbedded(cleanups: Cleanups): Promise<Seeded> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-crash-'));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const env = { KEIYAKU_DATA_DIR: dataDir, KEIYAKU_MASTER_KEY: randomBytes(32).toString('base64') };
  const config = loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent' });
  const service = await createService(config, {
    clock: new ManualClock(),
    logger: createLogger('silent'),
    plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
    jobPollingSeconds: 0.5,
  });
  const server = await service.listen();
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const app: TestApp = {
    url,
    api: new TestClient(url),
    service,
    clock: new ManualClock(),
    dataDir,
    close: async () => {},
  };
  const seeded = await seedWorld(app);
  await service.close(); // closes the PGlite too: one process at a time may open it
  return {
    app,
    ...seeded,
    env,
    withDatabase: async (read) => {
      const database = await openDatabase(config.database);
      try {
        return await read(database.knex);
      } finally {
        await database.close();
      }
    },
  };
}

interface Child {
  process: ChildProcess;
  app: TestApp;
  output: () => string;
}

/** Starts core/server.ts on the seeded database and data folder, with `env` on top; resolves when ready. */
async function startServer(cleanups: Cleanups, seeded: Seeded, env: Record<string, string>): Promise<Child> {
  const port = await freePort();
  const { DATABASE_URL: _url, CLAMAV_HOST: _clamd, SMTP_URL: _smtp, TSA_URL: _tsa, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/server.ts'], {
    cwd: root,
    env: {
      ...inherited,
      ...seeded.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      KEIYAKU_PLUGIN_MAIL_RETRY_DELAY_SECONDS: '1',
      // Only what is older than ten minutes is swept: the test ages the crash's leftovers by two hours.
      KEIYAKU_BLOB_SWEEP_GRACE_SECONDS: '600',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  cleanups.push(async () => child.kill('SIGKILL'));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    const ready = await fetch(`${url}/readyz`).catch(() => null);
    if (ready?.ok)
      return { process: child, app: { ...seeded.app, url, api: new TestClient(url) }, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready:\n${output}`);
}

function exited(child: ChildProcess): Promise<unknown> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', resolve));
}

/** The states of a queue's jobs whose data matches, read from pg-boss's table. */
async function jobStates(knex: Knex, queue: string, match: Record<string, string>): Promise<string[]> {
  return knex('pgboss.job')
    .where({ name: queue })
    .whereRaw('data @> ?::jsonb', [JSON.stringify(match)])
    .pluck('state');
}

/** Starts an upload and sends only the first half of its body; the request stays open until the server dies. */
function halfUpload(child: Child, token: string, flowId: string, pdf: Uint8Array): Promise<string> {
  const { base, path: route } = loadContract().operation('uploadDocument');
  const boundary = `----keiyaku${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf-upload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.pdf"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(child.app.url + base + route.replace('{businessFlowId}', flowId));
  return new Promise((resolve) => {
    const req = http.request(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + pdf.length + tail.length,
      },
    });
    req.on('response', (res) => resolve(`answered ${res.statusCode}`));
    req.on('error', (error) => resolve(`cut off: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
    req.write(head);
    req.write(pdf.subarray(0, pdf.length / 2));
  });
}

/** Every file under the blob store's folder, with its name. */
function blobFolderFiles(store: LocalBlobStore): string[] {
  if (!existsSync(store.root)) return [];
  return (readdirSync(store.root, { recursive: true }) as string[])
    .map((name) => path.join(store.root, name))
    .filter((file) => statSync(file).isFile());
}

function ageFile(file: string, ms: number): void {
  const then = new Date(Date.now() - ms);
  utimesSync(file, then, then);
}

const placement = (line: string) => [
  { kind: 'text', page: 1, rect: { x1: 50, y1: 50, x2: 200, y2: 110 }, lines: [line] },
];

/** Starts the server, puts work in flight, kills it with -9, restarts it on the same data and checks the outcome. */
export async function killAndRestart(cleanups: Cleanups, seeded: Seeded): Promise<string> {
  const { world } = seeded;
  const store = new LocalBlobStore(seeded.app.dataDir);
  // clamd answers its start-up PING, then never answers a scan; the SMTP relay never greets.
  const clamd = await startSilentServer((data) => (data.toString('latin1').startsWith('zPING') ? 'PONG\0' : null));
  const smtp = await startSilentServer();
  cleanups.push(clamd.close, smtp.close);
  let first: Child | null = null;
  let killedAt = 0;
  let killedBy = '';
  const kill = (by: string) => {
    if (!first || killedAt) return;
    killedAt = Date.now();
    killedBy = by;
    first.process.kill('SIGKILL');
  };
  // The kill comes the moment the signed PDF's blob is in place (fsynced and renamed; its row not yet committed,
  // or just committed), or 2 s after the signature's TSA reply (through a relay) should that go unseen.
  const tsa = await startTsaRelay(
    () => `${first!.app.url}/tsa`,
    () => setTimeout(() => kill('2 s after the TSA reply'), 2000),
  );
  cleanups.push(tsa.close);
  first = await startServer(cleanups, seeded, {
    CLAMAV_HOST: '127.0.0.1',
    CLAMAV_PORT: String(clamd.port),
    CLAMAV_TIMEOUT_MS: '300000',
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    TSA_URL: tsa.url,
  });

  // A document whose scan hangs in clamd (its job active), and a password-reset mail hanging at the SMTP relay.
  const scanned = await uploadPdf(first.app, world.ownerA.token, world.flowId, { name: 'スキャン中に停止' });
  const blocked = await first.app.api.call('downloadDocument', {
    token: world.ownerA.token,
    params: { documentId: scanned.id },
  });
  expect(blocked.body.errors[0].code).toBe('DOCUMENT_BEING_SCANNED');
  const reset = await first.app.api.call('requestPasswordReset', {
    body: {
      data: { type: 'PasswordResetRequest', attributes: { loginId: world.ownerA.loginId, email: world.ownerA.email } },
    },
  });
  expect(reset.status).toBe(202);
  await expect.poll(() => clamd.connections(), { timeout: 30_000 }).toBeGreaterThanOrEqual(2); // PING, then the scan
  await expect.poll(() => smtp.connections(), { timeout: 30_000 }).toBeGreaterThan(0);

  // An upload whose body is half sent, and a signature killed as its blob lands.
  const upload = halfUpload(first, world.ownerA.token, world.flowId, await buildNoisePdf(2_000_000));
  await new Promise((resolve) => setTimeout(resolve, 500));
  const watcher = watch(store.root, { recursive: true }, (_event, name) => {
    if (/[0-9a-f]{64}$/.test(name ?? '')) kill(`the blob ${path.basename(name!)} was written`);
  });
  cleanups.push(async () => watcher.close());
  const signing = signTaskCall(first.app, world.userA1.token, seeded.signTaskId, {
    placements: placement('停止試験'),
  }).then(
    (result) => `answered ${result.status}: ${JSON.stringify(result.body)}`,
    (error: Error) => `cut off: ${error.message}`,
  );
  await Promise.race([exited(first.process), new Promise((resolve) => setTimeout(resolve, 30_000))]);
  watcher.close();
  expect(killedAt, `the signature never reached the TSA:\n${await signing}\n${first.output()}`).toBeGreaterThan(0);
  // Cut off, almost always; a machine slow enough to let the response out first leaves a committed signature,
  // which the checks below then find whole.
  expect(await signing).toMatch(/^(cut off|answered 200)/);
  expect(await upload).toMatch(/^cut off/);

  // What a crash can leave in the blob store, made old (the restart could come any time later): a blob whose row
  // never committed, a write cut short, and — aged too, so the sweeper must see they are referenced — every blob.
  const leftByCrash = blobFolderFiles(store).map((f) => path.basename(f));
  const orphan = Buffer.from(`an upload whose transaction died ${randomBytes(8).toString('hex')}`);
  const { sha256: orphanSha } = await store.put(orphan);
  const debris = `${store.pathOf(orphanSha)}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(debris, orphan.subarray(0, 10));
  for (const file of blobFolderFiles(store)) ageFile(file, TWO_HOURS);

  // The restart: clamd and the SMTP relay work again (here the built-in scan engine and a real SMTP sink).
  const sink = await SmtpSink.start();
  cleanups.push(() => sink.stop());
  const second = await startServer(cleanups, seeded, { SMTP_URL: sink.url });
  const restartedAt = Date.now();
  const download = () =>
    second.app.api.call('downloadDocument', { token: world.ownerA.token, params: { documentId: scanned.id } });
  await expect.poll(async () => (await download()).status, { timeout: 60_000, interval: 250 }).toBe(200);
  await expect.poll(() => sink.to(world.ownerA.email).length, { timeout: 60_000, interval: 250 }).toBeGreaterThan(0);
  const resumedWithin = Date.now() - restartedAt;
  // pg-boss's expiry alone would take 60 s after the last heartbeat; the dead process's claims bring the jobs back
  // as the new process starts.
  expect(resumedWithin).toBeLessThan(30_000);
  expect(Date.now() - killedAt).toBeLessThan(60_000);

  // Signing again: 200 if the killed signature left nothing, 409 if it had committed whole.
  const again = await signTaskCall(second.app, world.userA1.token, seeded.signTaskId, {
    placements: placement('再署名'),
  });
  expect([200, 409]).toContain(again.status);
  if (again.status === 409) expect(again.body.errors[0].code).toBe('TASK_NOT_EXECUTABLE');

  // The sweep at start removes the debris and the orphans, and only those.
  await expect.poll(() => existsSync(debris) || existsSync(store.pathOf(orphanSha)), { timeout: 30_000 }).toBe(false);
  expect(blobFolderFiles(store).filter((f) => /\.(tmp|sweep)$/.test(f))).toEqual([]);
  const stopped = exited(second.process);
  second.process.kill('SIGTERM');
  await stopped;
  expect(second.process.exitCode, second.output()).toBe(0);

  await seeded.withDatabase(async (knex) => {
    const version = await knex('document_versions').where({ document_id: scanned.id }).first('id', 'scan_status');
    expect(version.scan_status).toBe('clean');
    expect(await jobStates(knex, 'malware-scan.scan', { documentVersionId: version.id })).toEqual(['completed']);
    // One signed revision, whole: its row, its blob (a PDF qpdf accepts), its ledger row; the task done.
    const versions = await knex('document_versions').where({ document_id: seeded.signDocumentId }).orderBy('version');
    expect(versions.map((v) => v.kind)).toEqual(['upload', 'signature']);
    qpdfCheck(await store.read(versions[1]!.sha256));
    const ledger = await knex('sign_records').where({ document_id: seeded.signDocumentId }).pluck('document_hash');
    expect(ledger).toEqual([versions[1]!.sha256]);
    expect((await knex('tasks').where({ id: seeded.signTaskId }).first('status')).status).toBe('completed');
    // The half-sent upload left nothing; every row's blob is there, and nothing else is.
    expect(await knex('documents').where({ name: 'half-upload' }).first()).toBeUndefined();
    const referenced = [
      ...(await knex('document_versions').pluck('sha256')),
      ...(await knex('seal_images').pluck('sha256')),
    ] as string[];
    for (const sha256 of referenced) expect(await store.exists(sha256), sha256).toBe(true);
    const onDisk = blobFolderFiles(store).map((f) => path.basename(f));
    expect(new Set(onDisk)).toEqual(new Set(referenced));
  });
  const swept = leftByCrash.filter((name) => !existsSync(path.join(path.dirname(store.pathOf(name)), name)));
  return (
    `killed when ${killedBy}; jobs resumed ${resumedWithin} ms after the restart; the signature had ` +
    `${again.status === 200 ? 'left nothing' : 'committed whole'}; swept besides the planted files: ${swept.join(', ') || 'nothing'}`
  );
}
