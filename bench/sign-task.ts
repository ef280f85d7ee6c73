/**
 * `npm run bench:sign-task`: PAdES B-T signatures end to end through the sign-task API, and the event loop meanwhile.
 *
 * Makes a scratch PostgreSQL database, starts the real server (core/server.ts) as its own process on it (built-in TSA,
 * the business-operator key the local CA issues, job workers off unless KEIYAKU_WORKERS says otherwise), signs an
 * organization up through the API and prepares, through the API, BENCH_DOCUMENTS in-progress documents: one business
 * flow each in a workspace of the owner's group, a ~1 MB, 50-page PDF uploaded (the same bytes every time), and a
 * plan of one sign task of type 'operator' (PAdES B-T, the business-operator key) for that group. Two things are
 * written straight into the database, as a test would: the owner's e-mail address confirmed, and every uploaded
 * version recorded clean (the malware scan is a job of its own, not what is measured here). Then, side by side in
 * this one run:
 *   baseline  GET /healthz from a probe alone (no other load) for BENCH_PROBE_SECONDS (3);
 *             signPdf B-T of the same PDF through a PDF worker pool of this process with as many workers as the
 *             server's (KEIYAKU_PDF_WORKERS, else the server's default), BENCH_SIGNERS in flight, BENCH_POOL_SIGNATURES
 *             (100) times, with the built-in TSA in-process: the engine's own rate, no HTTP, no database;
 *   load      BENCH_SIGNERS (10) signers, each executing the next sign task through POST /core/v1/tasks/{id}/sign
 *             one after the other, for BENCH_SECONDS (10) after BENCH_WARMUP_SECONDS (2); signatures/s, latency
 *             p50/p99 and every refusal by code; meanwhile the probe measures GET /healthz again.
 * The probe runs in a worker thread of its own (its timings do not wait on this thread's event loop): one request at
 * a time on one kept-alive connection, BENCH_PROBE_INTERVAL_MS (10) apart. The CPU time of the server (all its
 * threads) and of PostgreSQL's backends for the database (from /proc), and the machine's CPU use during the load are
 * printed beside the figures, with the load average.
 * Afterwards one signed document is verified through the API (getDocumentSignatures: B-T, intact) and the ledger
 * counted, so a fast figure cannot come from signatures that are not there.
 *
 * Needs PostgreSQL (DATABASE_URL, default keiyaku_bench_sign_task on BENCH_POSTGRES_URL's server, created and
 * dropped by the run). BENCH_SERVER_NODE_ARGS passes Node options to the server ('--cpu-prof --cpu-prof-dir=/tmp/p'
 * profiles it under load). The upload rate limit would stop the preparation, so the server runs with
 * KEIYAKU_RATE_LIMIT_SCALE=1000 unless set. BENCH_DOCUMENTS defaults to 60 a second of warm-up and load: a run
 * that signs them all before the time is up says so.
 */
import { type ChildProcess, execFileSync } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { PdfWorkPool } from '../core/pdf-work/pool.ts';
import { softwareKey } from '../core/signing/keys.ts';
import { signPdf } from '../core/signing/pades.ts';
import { localTimestampAuthority } from '../core/signing/tsa.ts';
import { buildNoisePdf } from '../tests/helpers/pdf.ts';
import { call, signUpAndIn } from './api.ts';
import { intFromEnv, scratchDatabaseUrl } from './env.ts';
import { freePort, percentile, startServer } from './server.ts';
import { reportTargets, type TargetRow } from './targets.ts';

const TARGET = { signaturesPerSecond: 25, healthzP99Ms: 20 };
const SECONDS = intFromEnv('BENCH_SECONDS', 10, 1);
const WARMUP_SECONDS = intFromEnv('BENCH_WARMUP_SECONDS', 2, 0);
const SIGNERS = intFromEnv('BENCH_SIGNERS', 10, 1);
const DOCUMENTS = intFromEnv('BENCH_DOCUMENTS', 60 * (SECONDS + WARMUP_SECONDS), 1);
const PROBE_SECONDS = intFromEnv('BENCH_PROBE_SECONDS', 3, 1);
const PROBE_INTERVAL_MS = intFromEnv('BENCH_PROBE_INTERVAL_MS', 10, 0);
const POOL_SIGNATURES = intFromEnv('BENCH_POOL_SIGNATURES', 100, 1);
/** Uploads and plans in flight while preparing. */
const PREPARE_CONCURRENCY = 4;
const MB = 1024 * 1024;
const PAGES = 50;
const DATABASE_URL = process.env.DATABASE_URL || scratchDatabaseUrl('keiyaku_bench_sign_task');
/** The server's PDF workers: as configured, else its default (one less than the cores, at least one). */
const SERVER_PDF_WORKERS = Number(process.env.KEIYAKU_PDF_WORKERS) || Math.max(1, availableParallelism() - 1);
/** Signatures in flight on the baseline pool: the signers, within what the pool accepts (its workers and 4 queued each). */
const POOL_CONCURRENCY = Math.min(SIGNERS, SERVER_PDF_WORKERS * 5);

/** Runs `sql` on the server's maintenance database (CREATE / DROP DATABASE). */
async function admin(sql: string): Promise<void> {
  const url = new URL(DATABASE_URL);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query(sql).finally(() => client.end());
}

const databaseName = () => new URL(DATABASE_URL).pathname.slice(1);

/**
 * Starts the server on the benchmark database (bench/server.ts) with the rate limits scaled up (preparing uploads
 * through the API would hit the upload limit) and the built-in TSA and the key the local CA issues: nothing on the
 * network.
 */
async function startSigningServer(port: number, dataDir: string): Promise<ChildProcess> {
  return startServer(port, dataDir, DATABASE_URL, {
    TSA_URL: undefined,
    KEIYAKU_OPERATOR_P12_FILE: undefined,
    KEIYAKU_WORKERS: process.env.KEIYAKU_WORKERS ?? 'false',
    KEIYAKU_RATE_LIMIT_SCALE: process.env.KEIYAKU_RATE_LIMIT_SCALE ?? '1000',
  });
}

/** Runs `work` over `items` with `concurrency` in flight; results in the items' order. */
async function inParallel<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, items.length) }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

interface Prepared {
  token: string;
  organizationId: string;
  /** One active sign task per document, in upload order. */
  tasks: { taskId: string; documentId: string }[];
}

/** The organization, its workspace, and DOCUMENTS documents with an active B-T sign task each (see the file comment). */
async function prepare(base: string, client: pg.Client, pdf: Uint8Array): Promise<Prepared> {
  const { token, loginId } = await signUpAndIn(base);
  const { rows } = await client.query(
    `SELECT u.id AS user_id, u.organization_id, m.group_id
       FROM users u JOIN group_members m ON m.user_id = u.id WHERE u.login_id = $1 LIMIT 1`,
    [loginId],
  );
  const { user_id: userId, organization_id: organizationId, group_id: groupId } = rows[0];
  // Signing needs a confirmed address (the arrival-confirmation mail has tests of its own).
  await client.query(`UPDATE users SET email_confirmed_address = email, email_confirmed_at = now() WHERE id = $1`, [
    userId,
  ]);
  const workspace = await call<{ data: { id: string } }>(
    base,
    'POST',
    '/core/v1/workspaces',
    201,
    {
      data: {
        type: 'Workspace',
        attributes: {
          name: 'Bench signatures',
          mailNotification: false,
          participants: [{ kind: 'group', groupId, isEditable: true }],
        },
      },
    },
    token,
  );
  const started = performance.now();
  const documents = await inParallel(
    Array.from({ length: DOCUMENTS }, (_, i) => i),
    PREPARE_CONCURRENCY,
    async (i) => {
      const flow = await call<{ data: { id: string } }>(
        base,
        'POST',
        `/core/v1/workspaces/${workspace.data.id}/business-flows`,
        201,
        { data: { type: 'BusinessFlow', attributes: { name: `Bench ${i + 1}` } } },
        token,
      );
      const form = new FormData();
      form.append('file', new Blob([pdf as Uint8Array<ArrayBuffer>], { type: 'application/pdf' }), 'contract.pdf');
      form.append('name', `契約書 ${i + 1}`);
      const response = await fetch(`${base}/core/v1/business-flows/${flow.data.id}/documents`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        body: form,
      });
      const text = await response.text();
      if (response.status !== 201) throw new Error(`uploadDocument answered ${response.status}: ${text}`);
      const document = JSON.parse(text) as { data: { id: string; attributes: { lockVersion: number } } };
      return document.data;
    },
  );
  const uploaded = performance.now();
  const scanned = await client.query(
    `UPDATE document_versions SET scan_status = 'clean', scan_engine = 'bench', scanned_at = now()
      WHERE organization_id = $1 AND scan_status = 'pending'`,
    [organizationId],
  );
  const tasks = await inParallel(documents, PREPARE_CONCURRENCY, async (document) => {
    const plan = await call<{ data: { id: string }[] }>(
      base,
      'PUT',
      `/core/v1/documents/${document.id}/tasks`,
      200,
      {
        data: {
          type: 'DocumentTasks',
          attributes: {
            lockVersion: document.attributes.lockVersion,
            tasks: [
              {
                order: 1,
                type: 'sign',
                assignee: { kind: 'group', groupId },
                required: true,
                signatureType: 'operator',
              },
            ],
          },
        },
      },
      token,
    );
    return { taskId: plan.data[0]!.id, documentId: document.id };
  });
  console.log(
    `  ${DOCUMENTS} flows and documents uploaded in ${((uploaded - started) / 1000).toFixed(1)} s ` +
      `(${scanned.rowCount} versions recorded clean), plans in ${((performance.now() - uploaded) / 1000).toFixed(1)} s`,
  );
  return { token, organizationId, tasks };
}

// The /healthz probe: plain JavaScript in a worker thread (no tsx), one request at a time on one kept-alive
// connection. 'start' begins a series, 'stop' ends it and posts every latency back; the bench terminates it.
const PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const { performance } = require('node:perf_hooks');
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
let running = false;
function once() {
  return new Promise((resolve) => {
    const start = performance.now();
    const req = http.get({ host: '127.0.0.1', port: workerData.port, path: '/healthz', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ ms: performance.now() - start, ok: res.statusCode === 200 }));
    });
    req.on('error', () => resolve({ ms: performance.now() - start, ok: false }));
  });
}
async function series() {
  const times = [];
  let failures = 0;
  while (running) {
    const { ms, ok } = await once();
    if (ok) times.push(ms); else failures += 1;
    if (workerData.intervalMs > 0) await new Promise((resolve) => setTimeout(resolve, workerData.intervalMs));
  }
  parentPort.postMessage({ times, failures });
}
parentPort.on('message', (message) => {
  if (message === 'start') { running = true; void series(); }
  else if (message === 'stop') running = false;
});
`;

interface ProbeFigures {
  times: number[];
  failures: number;
}

class HealthProbe {
  readonly #worker: Worker;
  constructor(port: number) {
    this.#worker = new Worker(PROBE, { eval: true, execArgv: [], workerData: { port, intervalMs: PROBE_INTERVAL_MS } });
  }
  start(): void {
    this.#worker.postMessage('start');
  }
  async stop(): Promise<ProbeFigures> {
    const result = new Promise<ProbeFigures>((resolve) => this.#worker.once('message', resolve));
    this.#worker.postMessage('stop');
    const figures = await result;
    figures.times.sort((a, b) => a - b);
    return figures;
  }
  async close(): Promise<void> {
    await this.#worker.terminate();
  }
}

/** CPU seconds the process has used, all its threads (utime + stime from /proc, in clock ticks of 1/100 s). */
async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds PostgreSQL's backends for the benchmark database have used so far (the server's pool and this
 * process's connection); a backend that ended meanwhile is not counted.
 */
async function databaseCpuSeconds(client: pg.Client): Promise<number> {
  const { rows } = await client.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database()`);
  let seconds = 0;
  for (const { pid } of rows as { pid: number }[]) {
    seconds += await processCpuSeconds(pid).catch(() => 0);
  }
  return seconds;
}

/** Busy and total CPU time of the whole machine so far (every core), in ms. */
function machineCpu(): { busy: number; total: number } {
  let busy = 0;
  let total = 0;
  for (const { times } of cpus()) {
    const sum = times.user + times.nice + times.sys + times.irq + times.idle;
    total += sum;
    busy += sum - times.idle;
  }
  return { busy, total };
}

interface SigningFigures {
  signatures: number;
  seconds: number;
  latencies: number[];
  refusals: Map<string, number>;
  ranOut: boolean;
  serverCpuSeconds: number;
  databaseCpuSeconds: number;
  machineBusy: number;
  probe: ProbeFigures;
  loadBefore: number;
  loadAfter: number;
}

/** BENCH_SIGNERS signers execute the next sign task each until `seconds` are up (or the tasks run out). */
async function signFor(
  base: string,
  token: string,
  queue: Prepared['tasks'],
  seconds: number,
  measure: { serverPid: number; probe: HealthProbe; client: pg.Client } | null,
): Promise<SigningFigures> {
  const latencies: number[] = [];
  const refusals = new Map<string, number>();
  let signatures = 0;
  let ranOut = false;
  const loadBefore = loadavg()[0]!;
  const cpuBefore = measure ? await processCpuSeconds(measure.serverPid) : 0;
  const databaseBefore = measure ? await databaseCpuSeconds(measure.client) : 0;
  const machineBefore = machineCpu();
  measure?.probe.start();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const body = JSON.stringify({ data: { type: 'TaskSignature', attributes: {} } });
  await Promise.all(
    Array.from({ length: SIGNERS }, async () => {
      while (performance.now() < deadline) {
        const task = queue.shift();
        if (!task) {
          ranOut = true;
          return;
        }
        const sent = performance.now();
        const response = await fetch(`${base}/core/v1/tasks/${task.taskId}/sign`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, accept: 'application/json', 'content-type': 'application/json' },
          body,
        });
        const text = await response.text();
        if (response.status === 200) {
          signatures += 1;
          latencies.push(performance.now() - sent);
        } else {
          const code = (JSON.parse(text) as { errors?: { code?: string }[] }).errors?.[0]?.code ?? 'no code';
          const key = `${response.status} ${code}`;
          refusals.set(key, (refusals.get(key) ?? 0) + 1);
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  const probe = measure ? await measure.probe.stop() : { times: [], failures: 0 };
  const machineAfter = machineCpu();
  latencies.sort((a, b) => a - b);
  return {
    signatures,
    seconds: elapsed,
    latencies,
    refusals,
    ranOut,
    serverCpuSeconds: measure ? (await processCpuSeconds(measure.serverPid)) - cpuBefore : 0,
    databaseCpuSeconds: measure ? (await databaseCpuSeconds(measure.client)) - databaseBefore : 0,
    machineBusy: (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total),
    probe,
    loadBefore,
    loadAfter: loadavg()[0]!,
  };
}

/** An RSA-2048 key and its self-signed certificate from `openssl req -x509` (as bench/signing.ts makes them). */
async function opensslKeyPair(dir: string, name: string, subject: string, extension: string) {
  const keyFile = path.join(dir, `${name}.key.pem`);
  const certificateFile = path.join(dir, `${name}.cert.pem`);
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '30'],
      ...['-keyout', keyFile, '-out', certificateFile, '-subj', subject, '-addext', extension],
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const certificate = new X509Certificate(await readFile(certificateFile));
  return {
    privateKey: createPrivateKey(await readFile(keyFile)),
    certificate: new Uint8Array(certificate.raw),
    notAfter: new Date(certificate.validTo),
  };
}

/**
 * The engine alone: signPdf B-T of `pdf` in a PDF worker pool of this process with the server's worker count,
 * SIGNERS in flight, the built-in TSA in-process; signatures per second after one warm-up per worker.
 */
async function poolRate(pdf: Uint8Array): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'keiyaku-bench-sign-task-keys-'));
  const pool = new PdfWorkPool({ workers: SERVER_PDF_WORKERS, timeoutMs: 60_000, memoryMb: 1024 });
  try {
    const signer = await opensslKeyPair(dir, 'signer', '/CN=Keiyaku Bench Signer', 'keyUsage=digitalSignature');
    const tsaKey = await opensslKeyPair(dir, 'tsa', '/CN=Keiyaku Bench TSA', 'extendedKeyUsage=critical,timeStamping');
    const tsa = localTimestampAuthority(
      async () => ({ purpose: 'local-tsa' as const, ...tsaKey, chain: [] }),
      () => new Date(),
    );
    const key = softwareKey({ privateKey: signer.privateKey, certificate: signer.certificate });
    const sign = async () => {
      const result = await signPdf({ pdf, key, level: 'B-T', signerName: 'Bench', claimedTime: new Date(), tsa }, pool);
      if (!result.timestampTime) throw new Error('signPdf returned no B-T signature');
    };
    await Promise.all(Array.from({ length: SERVER_PDF_WORKERS * 2 }, sign));
    let started = 0;
    const start = performance.now();
    // Every loop settles before the pool closes: closing it under a running task fails that task's worker.
    const loops = await Promise.allSettled(
      Array.from({ length: Math.min(POOL_CONCURRENCY, POOL_SIGNATURES) }, async () => {
        while (started < POOL_SIGNATURES) {
          started += 1;
          await sign();
        }
      }),
    );
    const failed = loops.find((loop) => loop.status === 'rejected');
    if (failed) throw failed.reason;
    return POOL_SIGNATURES / ((performance.now() - start) / 1000);
  } finally {
    await pool.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${value.toFixed(value < 10 ? 2 : 1)} ms`);

function printTable(title: string, rows: string[][]): void {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('   ')
      .trimEnd();
  console.log(`\n${title}`);
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('   '));
  for (const row of rows.slice(1)) console.log(line(row));
}

/** Checks that signatures were made: the ledger's rows, and one signed document's report (B-T, intact). */
async function checkSigned(base: string, token: string, client: pg.Client, documentId: string): Promise<number> {
  const report = await call<{
    data: { attributes: { allIntact: boolean; signatures: { padesLevel: string; integrity: string }[] } };
  }>(base, 'GET', `/core/v1/documents/${documentId}/signatures`, 200, undefined, token);
  const { allIntact, signatures } = report.data.attributes;
  if (!allIntact || signatures.length !== 1 || signatures[0]!.padesLevel !== 'B-T') {
    throw new Error(`the signed document does not verify as one intact B-T signature: ${JSON.stringify(signatures)}`);
  }
  const { rows } = await client.query(`SELECT count(*)::int AS count FROM sign_records`);
  return rows[0].count as number;
}

async function main(): Promise<void> {
  await admin(`DROP DATABASE IF EXISTS "${databaseName()}" WITH (FORCE)`);
  await admin(`CREATE DATABASE "${databaseName()}"`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'keiyaku-bench-sign-task-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  console.log(`Starting Keiyaku on PostgreSQL (${databaseName()}) ...`);
  const server = await startSigningServer(port, dataDir);
  // Interrupted: the server goes too (the finally below does not run on a signal).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      server.kill('SIGTERM');
      process.exit(130);
    });
  }
  const client = new pg.Client({ connectionString: DATABASE_URL });
  const probe = new HealthProbe(port);
  try {
    await client.connect();
    const pdf = await buildNoisePdf(MB, PAGES);
    console.log(
      `Preparing ${DOCUMENTS} documents (${(pdf.length / MB).toFixed(2)} MB, ${PAGES} pages) with a sign task each ...`,
    );
    const prepared = await prepare(base, client, pdf);
    const queue = [...prepared.tasks];

    console.log(`Baseline: GET /healthz alone for ${PROBE_SECONDS} s ...`);
    probe.start();
    await new Promise((resolve) => setTimeout(resolve, PROBE_SECONDS * 1000));
    const idle = await probe.stop();
    console.log(
      `Baseline: signPdf B-T through a pool of ${SERVER_PDF_WORKERS} PDF worker(s) here, ${POOL_SIGNATURES} times ...`,
    );
    const engineRate = await poolRate(pdf);

    if (WARMUP_SECONDS > 0) {
      console.log(`Warm-up: ${SIGNERS} signers for ${WARMUP_SECONDS} s ...`);
      await signFor(base, prepared.token, queue, WARMUP_SECONDS, null);
    }
    console.log(`Load: ${SIGNERS} signers for ${SECONDS} s, GET /healthz probed meanwhile ...`);
    const load = await signFor(base, prepared.token, queue, SECONDS, {
      serverPid: server.pid!,
      probe,
      client,
    });
    const signedDocument = prepared.tasks[0]!.documentId;
    const ledger = await checkSigned(base, prepared.token, client, signedDocument);

    const rate = load.signatures / load.seconds;
    const refusals = [...load.refusals].map(([code, count]) => `${count} × ${code}`).join(', ') || 'none';
    const cpu = cpus();
    printTable(
      `Sign tasks through the API · ${(pdf.length / MB).toFixed(2)} MB, ${PAGES} pages · PAdES B-T (operator key, ` +
        `built-in TSA) · ${SIGNERS} signers · ${SECONDS} s after ${WARMUP_SECONDS} s warm-up · server in its own ` +
        `process, ${SERVER_PDF_WORKERS} PDF worker(s) · Node ${process.version} · ${cpu.length} × ` +
        `${cpu[0]?.model.trim() ?? 'CPU'} · 1-min load average ${load.loadBefore.toFixed(2)} before, ` +
        `${load.loadAfter.toFixed(2)} after`,
      [
        ['', 'per second', 'p50', 'p99', 'max', 'count', 'failed'],
        [
          'POST /tasks/{id}/sign (10 signers)',
          `${rate.toFixed(1)} sig/s`,
          ms(percentile(load.latencies, 50)),
          ms(percentile(load.latencies, 99)),
          ms(load.latencies.at(-1) ?? NaN),
          String(load.signatures),
          String([...load.refusals.values()].reduce((a, b) => a + b, 0)),
        ],
        [
          'signPdf B-T on a pool here (baseline)',
          `${engineRate.toFixed(1)} sig/s`,
          '',
          '',
          '',
          String(POOL_SIGNATURES),
          '',
        ],
        [
          'GET /healthz while signing',
          `${(load.probe.times.length / load.seconds).toFixed(0)} req/s`,
          ms(percentile(load.probe.times, 50)),
          ms(percentile(load.probe.times, 99)),
          ms(load.probe.times.at(-1) ?? NaN),
          String(load.probe.times.length),
          String(load.probe.failures),
        ],
        [
          'GET /healthz alone (baseline)',
          `${(idle.times.length / PROBE_SECONDS).toFixed(0)} req/s`,
          ms(percentile(idle.times, 50)),
          ms(percentile(idle.times, 99)),
          ms(idle.times.at(-1) ?? NaN),
          String(idle.times.length),
          String(idle.failures),
        ],
      ],
    );
    console.log(
      `Server CPU during the load: ${load.serverCpuSeconds.toFixed(1)} s in ${load.seconds.toFixed(1)} s ` +
        `(${((load.serverCpuSeconds / load.seconds) * 100).toFixed(0)} % of one core; ` +
        `${load.signatures ? ((load.serverCpuSeconds * 1000) / load.signatures).toFixed(1) : 'n/a'} ms a signature); ` +
        `PostgreSQL's backends ${load.databaseCpuSeconds.toFixed(1)} s ` +
        `(${load.signatures ? ((load.databaseCpuSeconds * 1000) / load.signatures).toFixed(1) : 'n/a'} ms a signature); ` +
        `the machine's CPUs ${(load.machineBusy * 100).toFixed(0)} % busy. Refusals: ${refusals}. ` +
        `Ledger: ${ledger} signatures; the first document verifies as one intact B-T signature.`,
    );
    if (load.ranOut) {
      console.log(`The ${DOCUMENTS} prepared tasks ran out before the time was up: set BENCH_DOCUMENTS higher.`);
    }
    if (load.refusals.size > 0 || load.probe.failures > 0) process.exitCode = 1;
    const p99 = percentile(load.probe.times, 99);
    const rows: TargetRow[] = [
      {
        area: 'signing',
        target: `sign-task API ≥ ${TARGET.signaturesPerSecond}/s (B-T, 1 MB, ${SIGNERS} signers)`,
        figure:
          `${rate.toFixed(1)} sig/s, p99 ${ms(percentile(load.latencies, 99))} ` +
          `(signPdf on a pool of ${SERVER_PDF_WORKERS}: ${engineRate.toFixed(1)}/s; load ${load.loadAfter.toFixed(2)})`,
        met: rate >= TARGET.signaturesPerSecond && load.refusals.size === 0,
      },
      {
        area: 'signing',
        target: `/healthz p99 < ${TARGET.healthzP99Ms} ms while ${SIGNERS} sign`,
        figure: `p99 ${ms(p99)} (alone ${ms(percentile(idle.times, 99))})`,
        met: p99 < TARGET.healthzP99Ms && load.probe.failures === 0,
      },
    ];
    reportTargets('Sign-task targets', rows);
  } finally {
    await probe.close();
    await client.end().catch(() => undefined);
    server.kill('SIGTERM');
    if (server.exitCode === null) await new Promise((resolve) => server.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
    await admin(`DROP DATABASE IF EXISTS "${databaseName()}" WITH (FORCE)`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
