/**
 * `npm run bench`: HTTP throughput of the real service, in-process, measured with autocannon.
 *
 * Starts Keiyaku through createService on PostgreSQL (DATABASE_URL, else a scratch database on BENCH_POSTGRES_URL's
 * server; the embedded PGlite in a temporary data folder with BENCH_EMBEDDED=1 or when no PostgreSQL answers), signs
 * an organization up and its owner in through the API, then loads
 *   GET /healthz       the framework ceiling: trace id, error mapper, security headers, routing, no database;
 *   GET /core/v1/me    an authenticated read: JWT check, then the session (with user, organization and IP list),
 *                      user + organization and password-policy queries;
 * one after the other, each after a warm-up, and prints both side by side with the ratio /me ÷ /healthz.
 *
 * Environment: BENCH_SECONDS (10), BENCH_CONNECTIONS (50), BENCH_WARMUP_SECONDS (2), BENCH_PIPELINING (1),
 * BENCH_WORKERS (1: autocannon's worker threads, off the server's event loop), plus the
 * service's own variables (DATABASE_URL, KEIYAKU_WORKERS, KEIYAKU_VALIDATE_RESPONSES ...). Job workers and
 * response validation are off unless set, so the figures are those of the request path alone.
 *
 * Then the size of the JavaScript the workbench's /login page loads, gzipped, from the production build
 * (bench/web-size.ts), and, each in a process of its own: the start times and memory (bench/start.ts), PAdES B-T
 * signing with the real engine (bench/signing.ts), B-T signatures end to end through the sign-task API with /healthz
 * probed meanwhile (bench/sign-task.ts, on PostgreSQL) and the lists at 100,000 flows on PostgreSQL (bench/flows.ts).
 * Each also runs on its own. The run ends with one table of every target of the speed-and-scale issue next to its
 * figure and the machine's load (bench/targets.ts).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { loadConfig } from '../core/config.ts';
import { createService, type Service } from '../core/service.ts';
import { signUpAndIn } from './api.ts';
import { reportLoginRouteSize } from './web-size.ts';
import { intFromEnv, scratchDatabaseUrl } from './env.ts';
import { formatTargets, runBenchScript, type TargetRow } from './targets.ts';

const SECONDS = intFromEnv('BENCH_SECONDS', 10, 1);
const CONNECTIONS = intFromEnv('BENCH_CONNECTIONS', 50, 1);
const WARMUP_SECONDS = intFromEnv('BENCH_WARMUP_SECONDS', 2, 0);
const PIPELINING = intFromEnv('BENCH_PIPELINING', 1, 1);
/** autocannon runs in worker threads, so the load generator does not share the server's event loop. */
const LOAD_WORKERS = intFromEnv('BENCH_WORKERS', 1, 1);

interface Target {
  label: string;
  path: string;
  headers?: Record<string, string>;
}

interface Figures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  total: number;
}

async function load(base: string, target: Target, duration: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${base}${target.path}`,
    method: 'GET',
    headers: { accept: 'application/json', ...target.headers },
    connections: CONNECTIONS,
    pipelining: PIPELINING,
    workers: LOAD_WORKERS,
    duration,
  });
}

async function measure(base: string, target: Target): Promise<Figures> {
  if (WARMUP_SECONDS > 0) await load(base, target, WARMUP_SECONDS);
  const result = await load(base, target, SECONDS);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    total: result.requests.total,
  };
}

function printTable(title: string, targets: Target[], figures: Figures[]): void {
  const [ceiling, read] = figures as [Figures, Figures];
  const number = (value: number) => Math.round(value).toLocaleString('en-US');
  // autocannon's latency histogram has whole-millisecond resolution.
  const ms = (value: number) => (value < 1 ? '<1 ms' : `${Math.round(value)} ms`);
  const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : `${(a / b).toFixed(2)}×`);
  const rows: string[][] = [
    ['', ...targets.map((t) => t.label), '/me ÷ /healthz'],
    [
      'req/s (average)',
      number(ceiling.requestsPerSecond),
      number(read.requestsPerSecond),
      ratio(read.requestsPerSecond, ceiling.requestsPerSecond),
    ],
    ['latency p50', ms(ceiling.p50), ms(read.p50), ratio(read.p50, ceiling.p50)],
    ['latency p99', ms(ceiling.p99), ms(read.p99), ratio(read.p99, ceiling.p99)],
    ['requests', number(ceiling.total), number(read.total), ''],
    ['errors / non-2xx', `${ceiling.errors} / ${ceiling.non2xx}`, `${read.errors} / ${read.non2xx}`, ''],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('   ');
  console.log(`\n${title}`);
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('   '));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** Runs `sql` on the benchmarks' PostgreSQL server (BENCH_POSTGRES_URL); false when it does not answer. */
async function onPostgres(sql: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: scratchDatabaseUrl('postgres'), connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
  } catch {
    await client.end().catch(() => undefined);
    return false;
  }
  try {
    await client.query(sql);
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The scratch database of the /me load when it runs on PostgreSQL without a DATABASE_URL. */
const ME_DATABASE = 'keiyaku_bench_me';

/** The request path's target: an authenticated read at 0.4× or more of the framework ceiling. */
const ME_TARGET_RATIO = 0.4;

/** The /me load on `databaseUrl` (a scratch database, dropped afterwards, when `scratch`), else on PGlite. */
async function main(databaseUrl: string | null, scratch: boolean): Promise<TargetRow[]> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'keiyaku-bench-'));
  if (scratch) {
    await onPostgres(`DROP DATABASE IF EXISTS ${ME_DATABASE}`);
    await onPostgres(`CREATE DATABASE ${ME_DATABASE}`);
  }
  const { DATABASE_URL: _own, ...env } = process.env;
  const config = loadConfig({
    ...env,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    KEIYAKU_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    KEIYAKU_WORKERS: process.env.KEIYAKU_WORKERS ?? 'false',
    KEIYAKU_VALIDATE_RESPONSES: process.env.KEIYAKU_VALIDATE_RESPONSES ?? 'false',
  });
  const database =
    config.database.kind === 'postgres'
      ? `PostgreSQL (${new URL(config.database.url).pathname.slice(1)})`
      : 'PGlite (embedded, temp dir)';
  let service: Service | null = null;
  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      // close() lets requests autocannon abandoned finish before the database closes.
      await service?.close();
      await rm(dataDir, { recursive: true, force: true });
      if (scratch) await onPostgres(`DROP DATABASE IF EXISTS ${ME_DATABASE}`);
    })();
    return stopping;
  };
  process.once('SIGINT', () => {
    console.error('Interrupted: stopping the service ...');
    void stop().finally(() => process.exit(130));
  });
  try {
    console.log(`Starting Keiyaku on ${database} ...`);
    service = await createService(config);
    const server = await service.listen();
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const { token } = await signUpAndIn(base);
    const targets: Target[] = [
      { label: 'GET /healthz', path: '/healthz' },
      { label: 'GET /core/v1/me', path: '/core/v1/me', headers: { authorization: `Bearer ${token}` } },
    ];
    const figures: Figures[] = [];
    const loadBefore = os.loadavg()[0]!;
    for (const target of targets) {
      console.log(`Loading ${target.label}: ${WARMUP_SECONDS} s warm-up, then ${SECONDS} s ...`);
      figures.push(await measure(base, target));
    }
    const cpus = os.cpus();
    printTable(
      `Keiyaku ${database} · ${CONNECTIONS} connections${PIPELINING > 1 ? ` × ${PIPELINING} pipelined` : ''} · ` +
        `${SECONDS} s each after ${WARMUP_SECONDS} s warm-up · Node ${process.version} · ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}` +
        ` · autocannon in ${LOAD_WORKERS} worker thread${LOAD_WORKERS > 1 ? 's' : ''} of the same process` +
        ` · 1-min load average ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after`,
      targets,
      figures,
    );
    if (figures.some((f) => f.errors > 0 || f.non2xx > 0)) process.exitCode = 1;
    const [ceiling, read] = figures as [Figures, Figures];
    const ratio = read.requestsPerSecond / ceiling.requestsPerSecond;
    return [
      {
        area: 'request path',
        target: `GET /me ≥ ${ME_TARGET_RATIO}× GET /healthz req/s (${database})`,
        figure:
          `${ratio.toFixed(2)}× (${Math.round(read.requestsPerSecond).toLocaleString('en-US')} against ` +
          `${Math.round(ceiling.requestsPerSecond).toLocaleString('en-US')} req/s, ${CONNECTIONS} connections)`,
        met: ratio >= ME_TARGET_RATIO,
      },
    ];
  } finally {
    await stop();
  }
}

/**
 * Every benchmark in one run, each in a process of its own after the HTTP load (its CPU and RSS are its own), then
 * one table of every target next to its figure. The sign-task API and the lists need PostgreSQL (bench/sign-task.ts
 * and bench/flows.ts make their own databases; BENCH_SKIP_SIGN_TASK=1 and BENCH_SKIP_FLOWS=1 leave them out:
 * preparing the documents takes about a minute, seeding 100,000 flows a minute or two).
 */
async function runAll(): Promise<void> {
  const rows: TargetRow[] = [];
  const step = async (name: string, work: () => Promise<TargetRow[] | void>) => {
    try {
      rows.push(...((await work()) ?? []));
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      rows.push({ area: name, target: 'runs to the end', figure: 'failed (see above)', met: false });
      process.exitCode = 1;
    }
  };
  const postgres = await onPostgres('SELECT 1');
  // /me on PostgreSQL (the issue's target): DATABASE_URL's database when set, else a scratch one; BENCH_EMBEDDED=1
  // measures it on the embedded PGlite instead. The other benchmarks make databases of their own on that server
  // (scratchDatabaseUrl), so they run without DATABASE_URL: none of them may drop the database it names.
  const meOnScratch = !process.env.DATABASE_URL && postgres && process.env.BENCH_EMBEDDED !== '1';
  const meDatabase = process.env.BENCH_EMBEDDED === '1' ? null : (process.env.DATABASE_URL ?? null);
  await step('request path', () => main(meOnScratch ? scratchDatabaseUrl(ME_DATABASE) : meDatabase, meOnScratch));
  const { DATABASE_URL: _theirs, ...benchEnv } = process.env;
  // After the load, so a build of a stale web/dist never competes with the measured server for the CPU.
  await step('web', async () => {
    await reportLoginRouteSize();
  });
  const script = (name: string) => path.join(import.meta.dirname, name);
  const run = (name: string) => runBenchScript(script(name), [], benchEnv);
  if (existsSync(script('start.ts'))) await step('start', () => run('start.ts'));
  await step('signing', () => run('signing.ts'));
  if (process.env.BENCH_SKIP_SIGN_TASK !== '1') {
    if (postgres) await step('sign-task API', () => run('sign-task.ts'));
    else
      rows.push({
        area: 'signing',
        target: 'sign-task API: needs PostgreSQL',
        figure: 'not reachable: skipped',
        met: null,
      });
  }
  if (process.env.BENCH_SKIP_FLOWS !== '1') {
    if (postgres) await step('lists', () => run('flows.ts'));
    else rows.push({ area: 'lists', target: 'needs PostgreSQL', figure: 'not reachable: skipped', met: null });
  }
  console.log(formatTargets('Every target, this run', rows));
  if (rows.some((row) => row.met === false)) console.log('\nSome targets are NOT MET (see above).');
}

runAll().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
