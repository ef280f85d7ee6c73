/**
 * `npm run bench:start`: how long the real server takes from spawn to answering /healthz, and its resident memory
 * then (VmRSS from /proc/<pid>/status, and the peak until then, VmHWM), for the compiled build `npm start` runs
 * (dist/server) and, side by side in the same run, the old way (`node --import tsx core/server.ts`). Three cases
 * each: the embedded default on a new data folder, the embedded default restarted on that folder, and PostgreSQL (a
 * scratch database, already migrated by a first start, so the figure is a restart's).
 *
 * BENCH_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres): a server where a scratch database may be created;
 * BENCH_RUNS (1): starts per case, the median is reported.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildServer, root, serverBuildStale, serverEntry } from '../scripts/build-server.ts';
import { intFromEnv } from './env.ts';
import { reportTargets, type TargetRow } from './targets.ts';

const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = intFromEnv('BENCH_RUNS', 1, 1);

const WAYS = {
  compiled: [serverEntry],
  tsx: ['--import', 'tsx', path.join(root, 'core/server.ts')],
} as const;
type Way = keyof typeof WAYS;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A memory figure of /proc/<pid>/status in MB: VmRSS (resident now) or VmHWM (the most it was resident). */
function statusMb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((row) => row.startsWith(`${field}:`));
  return Math.round(Number(line?.split(/\s+/)[1] ?? 0) / 1024);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 20_000).unref();
  });
}

interface Start {
  seconds: number;
  rssMb: number;
  peakMb: number;
}

/** Spawns the server, waits for /healthz, reads its RSS, stops it. */
async function startOnce(way: Way, dataDir: string, databaseUrl: string | null): Promise<Start> {
  const port = await freePort();
  const { DATABASE_URL: _ignored, ...env } = process.env;
  const started = performance.now();
  const child = spawn(process.execPath, [...WAYS[way]], {
    cwd: root,
    env: {
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      PORT: String(port),
      KEIYAKU_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr!.on('data', (chunk) => (errors += chunk));
  try {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${way} server exited with ${child.exitCode}:\n${errors}`);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => null);
      if (health?.ok) {
        const seconds = (performance.now() - started) / 1000;
        return { seconds, rssMb: statusMb(child.pid!, 'VmRSS'), peakMb: statusMb(child.pid!, 'VmHWM') };
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`${way} server did not answer /healthz within 120 s:\n${errors}`);
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(
  way: Way,
  scratch: string,
  databaseUrl: string,
  pgDataDir: string,
): Promise<Record<string, Start>> {
  const fresh: Start[] = [];
  const restart: Start[] = [];
  const postgres: Start[] = [];
  for (let run = 0; run < RUNS; run++) {
    const dataDir = mkdtempSync(path.join(scratch, `${way}-`));
    fresh.push(await startOnce(way, dataDir, null));
    restart.push(await startOnce(way, dataDir, null));
    rmSync(dataDir, { recursive: true, force: true });
    postgres.push(await startOnce(way, pgDataDir, databaseUrl));
  }
  const pick = (starts: Start[]) => ({
    seconds: median(starts.map((start) => start.seconds)),
    rssMb: median(starts.map((start) => start.rssMb)),
    peakMb: median(starts.map((start) => start.peakMb)),
  });
  return { fresh: pick(fresh), restart: pick(restart), postgres: pick(postgres) };
}

if (serverBuildStale()) {
  console.log('Compiling the server (dist/server) ...');
  await buildServer();
}
const scratch = mkdtempSync(path.join(os.tmpdir(), 'keiyaku-bench-start-'));
const databaseName = `keiyaku_bench_start_${process.pid}`;
const admin = new pg.Client({ connectionString: POSTGRES_URL });
await admin.connect();
await admin.query(`CREATE DATABASE ${databaseName}`);
const databaseUrl = new URL(POSTGRES_URL);
databaseUrl.pathname = `/${databaseName}`;
try {
  // A first start migrates the scratch database, so both ways then measure a PostgreSQL restart.
  // (the data folder keeps the master key the database was created with).
  const pgDataDir = mkdtempSync(path.join(scratch, 'postgres-'));
  await startOnce('compiled', pgDataDir, databaseUrl.href);
  const tsx = await measure('tsx', scratch, databaseUrl.href, pgDataDir);
  const compiled = await measure('compiled', scratch, databaseUrl.href, pgDataDir);
  const format = (start: Start) => `${start.seconds.toFixed(1)} s, ${start.rssMb} MB (peak ${start.peakMb})`;
  const rows: TargetRow[] = [];
  const cases = [
    { key: 'fresh', label: 'embedded, new data folder', seconds: 8, rss: 400 },
    { key: 'restart', label: 'embedded, restart', seconds: 3, rss: 400 },
    { key: 'postgres', label: 'PostgreSQL, restart', seconds: 3, rss: 200 },
  ];
  for (const { key, label, seconds, rss } of cases) {
    rows.push({ area: `start: ${label} (old: tsx)`, target: 'baseline', figure: format(tsx[key]!), met: null });
    rows.push({
      area: `start: ${label} (npm start)`,
      target: `≤ ${seconds} s to /healthz, ≤ ${rss} MB RSS`,
      figure: format(compiled[key]!),
      met: compiled[key]!.seconds <= seconds && compiled[key]!.rssMb <= rss,
    });
  }
  reportTargets(`npm start: spawn to /healthz and RSS (median of ${RUNS})`, rows);
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  await admin.end();
  rmSync(scratch, { recursive: true, force: true });
}
