/*
 * Scale-out on real parts: two API processes (KEIYAKU_ROLE=api) and one worker process (KEIYAKU_ROLE=worker), each
 * core/server.ts as a child process with its own data folder, on one PostgreSQL database and one S3 bucket (s3rver),
 * behind a round-robin proxy without session affinity. Through the proxy: a session works on both API processes,
 * an upload through one is downloaded through the other, its malware scan waits until a worker process runs (the
 * API processes run no jobs), a signature is made and read back whole, and a rate limit counts across processes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signIn } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { TestClient } from '../helpers/client.ts';
import { adminQuery, databaseUrl } from '../helpers/databases.ts';
import { uploadPdf } from '../helpers/documents.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.ts';
import { s3Env, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { confirmEmailOf, qpdfCheck, signTaskCall } from '../helpers/signing.ts';
import { groupTask, plan, seedTaskWorld, startTaskApp, type TaskWorld } from '../helpers/tasks.ts';
import { freePort } from '../peers/clamd.ts';

const root = path.resolve(import.meta.dirname, '../..');
const cleanups: (() => Promise<unknown>)[] = [];

interface ServerProcess {
  url: string;
  process: ChildProcess;
  output: () => string;
}

let seed: TestApp;
let world: TaskWorld;
let s3: S3TestServer;
let baseEnv: Record<string, string>;
let apis: ServerProcess[];
let proxy: RoundRobinProxy;
/** The seeded app's helpers, pointed at the proxy. */
let viaProxy: TestApp;

/** Starts core/server.ts in `role` on the shared database and bucket; resolves once /readyz answers 200. */
async function startServer(role: 'api' | 'worker', env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), `keiyaku-${role}-`));
  const { DATABASE_URL: _url, CLAMAV_HOST: _clamd, SMTP_URL: _smtp, TSA_URL: _tsa, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'core/server.ts'], {
    cwd: root,
    env: { ...inherited, ...baseEnv, KEIYAKU_DATA_DIR: dataDir, KEIYAKU_ROLE: role, PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  cleanups.push(async () => {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${role} exited early:\n${output}`);
    if ((await fetch(`${url}/readyz`).catch(() => null))?.ok) return { url, process: child, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${role} did not become ready:\n${output}`);
}

async function downloadFrom(base: string, documentId: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(`${base}/core/v1/documents/${documentId}/file`, {
    headers: { authorization: `Bearer ${world.ownerA.token}` },
  });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

beforeAll(async () => {
  // The world is seeded in this process, then its service closes (its job workers with it); the database stays.
  seed = await startTaskApp();
  cleanups.push(() => seed.close());
  world = await seedTaskWorld(seed);
  await confirmEmailOf(seed, world.userA1.id);
  await seed.service.close();
  s3 = await startS3Server();
  cleanups.push(() => s3.close());
  const { config } = seed.service.deps;
  baseEnv = {
    ...s3Env(s3),
    DATABASE_URL: (config.database as { url: string }).url,
    KEIYAKU_MASTER_KEY: config.masterKey.toString('base64'),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // The proxy forwards the caller's address, as a load balancer does.
    TRUSTED_PROXIES: '127.0.0.1',
  };
  apis = await Promise.all([startServer('api'), startServer('api')]);
  proxy = await startRoundRobinProxy(apis.map((api) => api.url));
  cleanups.push(() => proxy.close());
  viaProxy = { ...seed, url: proxy.url, api: new TestClient(proxy.url) };
}, 180_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
});

describe('two API processes and a worker process behind a proxy', () => {
  it('serves one session, uploads, downloads, jobs and signatures across the processes', async () => {
    // A fresh sign-in through the proxy, then the session used on both API processes in turn.
    const { authorizationToken: token } = await signIn(viaProxy, world.ownerA.loginId, world.ownerA.password);
    const servedBefore = proxy.served.length;
    for (let i = 0; i < 4; i += 1) {
      expect((await viaProxy.api.call('getCurrentUser', { token })).status).toBe(200);
    }
    expect(new Set(proxy.served.slice(servedBefore).map((s) => s.upstream))).toEqual(new Set([0, 1]));

    // An upload lands in the bucket; with no worker process, its malware scan waits (API processes run no jobs).
    const keysBefore = s3.keys().length;
    const document = await uploadPdf(viaProxy, world.ownerA.token, world.flowId, { name: '分散構成の契約書' });
    const uploadedBy = proxy.served.at(-1)!.upstream;
    expect(s3.keys().length).toBeGreaterThan(keysBefore);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const waiting = await downloadFrom(apis[1 - uploadedBy]!.url, document.id);
    expect(waiting.status).toBe(409);
    expect(JSON.parse(waiting.bytes.toString()).errors[0].code).toBe('DOCUMENT_BEING_SCANNED');

    // The worker process runs the scan; the other API process then serves the file from the bucket.
    const worker = await startServer('worker');
    await expect
      .poll(async () => (await downloadFrom(apis[1 - uploadedBy]!.url, document.id)).status, {
        timeout: 60_000,
        interval: 250,
      })
      .toBe(200);
    const fromOther = await downloadFrom(apis[1 - uploadedBy]!.url, document.id);
    const fromUploader = await downloadFrom(apis[uploadedBy]!.url, document.id);
    expect(fromOther.bytes.equals(fromUploader.bytes)).toBe(true);
    expect(fromOther.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // The worker answers its probes and nothing else.
    expect((await fetch(`${worker.url}/healthz`)).status).toBe(200);
    const refused = await fetch(`${worker.url}/core/v1/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(refused.status).toBe(404);
    expect(((await refused.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('ROUTE_NOT_FOUND');

    // A signature through the proxy; the signed revision is read back whole through both API processes.
    const [task] = await plan(viaProxy, world.ownerA.token, document.id, [
      groupTask(1, 'sign', world.g1, { signatureType: 'operator' }),
    ]);
    const signed = await signTaskCall(viaProxy, world.userA1.token, task!.id, {
      placements: [{ kind: 'text', page: 1, rect: { x1: 50, y1: 50, x2: 200, y2: 110 }, lines: ['分散署名'] }],
    });
    expect(signed.status).toBe(200);
    const signedPdfs = await Promise.all(apis.map((api) => downloadFrom(api.url, document.id)));
    for (const pdf of signedPdfs) {
      expect(pdf.status).toBe(200);
      expect(pdf.bytes.length).toBeGreaterThan(fromOther.bytes.length);
      expect(pdf.bytes.equals(signedPdfs[0]!.bytes)).toBe(true);
    }
    expect(qpdfCheck(signedPdfs[0]!.bytes)).toMatch(/No syntax or stream encoding errors/);
  }, 180_000);

  it('counts a rate limit across the API processes', async () => {
    // Twenty forgotten-password requests an hour per address (recoveryPerIp), alternating between the two processes
    // (a new e-mail address each, so the per-address mail limit stays out of it): the 21st is refused, which two
    // separate in-memory counters (eleven and ten) would not do.
    const request = (i: number) =>
      viaProxy.api.call('requestPasswordReset', {
        headers: { 'x-forwarded-for': '203.0.113.77' },
        body: {
          data: {
            type: 'PasswordResetRequest',
            attributes: { loginId: `nobody-${i}`, email: `nobody-${i}@example.com` },
          },
        },
      });
    const before = proxy.served.length;
    const answers = [];
    for (let i = 0; i < 21; i += 1) answers.push(await request(i));
    expect(new Set(proxy.served.slice(before).map((s) => s.upstream))).toEqual(new Set([0, 1]));
    expect(answers.slice(0, 20).map((a) => a.status)).toEqual(Array(20).fill(202));
    expect(answers[20]!.status).toBe(429);
    expect(answers[20]!.body.errors[0].code).toBe('TOO_MANY_REQUESTS');
  }, 60_000);

  it('migrates an empty database once when an API and a worker process start on it together', async () => {
    const name = `keiyaku_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name}`);
    cleanups.push(() => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    const env = { DATABASE_URL: databaseUrl(name) };
    // Without the advisory lock one of them fails at once: knex's lock table says "already locked".
    const [api, worker] = await Promise.all([startServer('api', env), startServer('worker', env)]);
    for (const server of [api, worker]) {
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(((await ready.json()) as { checks: Record<string, string> }).checks.migrations).toBe('ok');
    }
  }, 180_000);
});
