/**
 * `npm run bench:import`: imports users from a generated CSV through the real CLI (`keiyaku users import`, a child
 * process, 500 rows a request) against a running service, on the embedded PGlite and, when reachable, on
 * PostgreSQL; prints rows/s and total seconds for each. The invitation jobs (temporary password + mail) run in the
 * background while the import goes on; afterwards the bench waits up to BENCH_INVITE_WAIT_SECONDS for them and
 * prints how long it took until all were processed (or how many were done when it stopped waiting).
 *
 * Environment: BENCH_IMPORT_ROWS (10000), BENCH_CHUNK_ROWS (500), BENCH_INVITE_WAIT_SECONDS (120),
 * BENCH_WORKERS (true: the invitation jobs run during the import, as in production; false: the import alone),
 * BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres: a server where a scratch database may be created;
 * "off" skips PostgreSQL).
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../core/config.ts';
import { createService } from '../core/service.ts';
import { USER_INVITE_JOB } from '../core/modules/users/invitation.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 10_000);
const CHUNK = Number(process.env.BENCH_CHUNK_ROWS ?? 500);
const INVITE_WAIT_SECONDS = Number(process.env.BENCH_INVITE_WAIT_SECONDS ?? 120);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const PASSWORD = 'Import2bench9';

interface Figures {
  database: string;
  seconds: number;
  rowsPerSecond: number;
  summary: string;
  invitations: string;
}

async function call<T>(base: string, method: string, url: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${base}/core/v1${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Signs an organization up (its owner is the administrator who imports) and returns the owner and default group. */
async function organization(base: string) {
  const terms = await call<{ data: { id: string } }>(base, 'GET', '/terms/current');
  const loginId = `bench-${randomBytes(4).toString('hex')}`;
  await call(base, 'POST', '/signup', {
    data: {
      type: 'SignUp',
      attributes: {
        organizationName: `Bench ${loginId}`,
        loginId,
        userName: 'Bench Owner',
        email: `${loginId}@example.com`,
        password: PASSWORD,
        passwordConfirmation: PASSWORD,
        acceptTermId: terms.data.id,
      },
    },
  });
  const auth = await call<{ data: { attributes: { authorizationToken: string } } }>(base, 'POST', '/auth', {
    data: { type: 'Auth', attributes: { loginId, password: PASSWORD, acceptTermId: terms.data.id } },
  });
  const token = auth.data.attributes.authorizationToken;
  const groups = await call<{ data: { attributes: { name: string } }[] }>(base, 'GET', '/groups', undefined, token);
  return { loginId, group: groups.data[0]!.attributes.name };
}

function csvOf(prefix: string, group: string): string {
  const lines = ['operation,loginId,name,email,groups'];
  for (let i = 1; i <= ROWS; i += 1) {
    const id = `${prefix}-${String(i).padStart(5, '0')}`;
    lines.push(`add,${id},Bench User ${i},${id}@example.com,"${group.replace(/"/g, '""')}"`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

function runCli(args: string[], env: Record<string, string>): Promise<{ out: string; err: string; code: number }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['cli/bin/keiyaku.js', ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, out, err) => resolve({ out, err, code: error ? Number((error as { code?: number }).code ?? 1) : 0 }),
    );
  });
}

async function measure(database: string, env: Record<string, string>): Promise<Figures> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'keiyaku-bench-import-'));
  const config = loadConfig({
    ...process.env,
    ...env,
    KEIYAKU_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    KEIYAKU_WORKERS: process.env.BENCH_WORKERS ?? 'true',
    KEIYAKU_VALIDATE_RESPONSES: 'false',
  });
  const service = await createService(config);
  try {
    const server = await service.listen();
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const owner = await organization(base);
    const file = path.join(dataDir, 'users.csv');
    await writeFile(file, csvOf(owner.loginId, owner.group));
    console.log(`${database}: importing ${ROWS.toLocaleString('en-US')} users through the CLI ...`);
    const started = performance.now();
    const run = await runCli(['users', 'import', '--chunk-size', String(CHUNK), file], {
      KEIYAKU_URL: base,
      KEIYAKU_LOGIN_ID: owner.loginId,
      KEIYAKU_PASSWORD: PASSWORD,
      KEIYAKU_CONFIG_DIR: dataDir,
      KEIYAKU_LANG: 'en',
    });
    const seconds = (performance.now() - started) / 1000;
    if (run.code !== 0) throw new Error(`keiyaku users import exited ${run.code}:\n${run.out}\n${run.err}`);
    const invitations = await waitForInvitations(service.deps.jobs, started);
    return {
      database,
      seconds,
      rowsPerSecond: ROWS / seconds,
      summary: run.out.split('\n')[0] ?? '',
      invitations,
    };
  } finally {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Waits for every invitation job to finish; says how long it took from the import's start, or how far it got. */
async function waitForInvitations(jobs: { counts(name: string): Promise<Record<string, number>> }, started: number) {
  const deadline = Date.now() + INVITE_WAIT_SECONDS * 1000;
  for (;;) {
    const counts = await jobs.counts(USER_INVITE_JOB);
    const pending = (counts.created ?? 0) + (counts.active ?? 0) + (counts.retry ?? 0);
    const done = counts.completed ?? 0;
    const elapsed = ((performance.now() - started) / 1000).toFixed(1);
    if (pending === 0) return `all ${done.toLocaleString('en-US')} processed ${elapsed} s after the import started`;
    if (Date.now() > deadline) {
      return `${done.toLocaleString('en-US')} of ${(done + pending).toLocaleString('en-US')} processed after ${elapsed} s (stopped waiting)`;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A scratch PostgreSQL database for the run, or null when no server answers. */
async function scratchPostgres(): Promise<{ url: string; drop(): Promise<void> } | null> {
  if (POSTGRES_URL === 'off') return null;
  const admin = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const name = `keiyaku_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: POSTGRES_URL });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

async function main(): Promise<void> {
  const results: Figures[] = [];
  const loadBefore = os.loadavg()[0]!;
  const { DATABASE_URL: _ignored, ...withoutDatabase } = process.env;
  process.env = withoutDatabase;
  results.push(await measure('PGlite (embedded)', {}));
  const postgres = await scratchPostgres();
  if (postgres) {
    try {
      results.push(await measure('PostgreSQL', { DATABASE_URL: postgres.url }));
    } finally {
      await postgres.drop();
    }
  } else {
    console.log(`PostgreSQL not reachable at ${POSTGRES_URL}: skipped`);
  }
  const cpus = os.cpus();
  console.log(
    `\nCSV import of ${ROWS.toLocaleString('en-US')} users via \`keiyaku users import\` (${CHUNK} rows a request)` +
      ` · Node ${process.version} · ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}` +
      ` · 1-min load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after`,
  );
  for (const r of results) {
    console.log(
      `${r.database.padEnd(18)} ${r.seconds.toFixed(1).padStart(7)} s   ${r.rowsPerSecond.toFixed(0).padStart(6)} rows/s` +
        `   invitations: ${r.invitations}`,
    );
    console.log(`${''.padEnd(18)} ${r.summary}`);
  }
}

await main();
