/**
 * PAdES B-T signing with the real engine (signPdf of core/signing/pades.ts), no database: part of `npm run bench`,
 * or on its own with `node --import tsx bench/signing.ts`.
 *
 * The signer's and the TSA's RSA-2048 keys and self-signed certificates are made with `openssl req -x509` in a
 * temporary folder; the TSA is the built-in one (localTimestampAuthority), answering in-process, so a signature is
 * two RSA-2048 private-key operations (signer, then TSA) plus everything around them. Measures
 *   throughput   the same ~1 MB, 50-page PDF signed BENCH_SIGNATURES (20) times in a row on this thread, after one
 *                warm-up (the baseline); then BENCH_POOL_SIGNATURES (100) times through signPdf with a PDF worker
 *                pool of BENCH_SIGN_WORKERS (2) workers, BENCH_SIGN_CONCURRENCY (8) signatures in flight, as the
 *                service signs: the PDF side in the workers, CMS, key and TSA on this thread (target ≥ 60/s);
 *   memory       one signature of a ~BENCH_SIGN_LARGE_MB (30) MB, 50-page PDF (on this thread, then through the
 *                pool, after one warm-up, mean of 3: the 30 MB target, ≤ 100 ms wall, is the pool's figure):
 *                wall time, and the process RSS
 *                before and at its peak, sampled every 10 ms by a worker thread (so the synchronous parts of the
 *                signing, which block this thread's event loop, are sampled too);
 *   references   SHA-256 of the same 1 MB and 30 MB bytes, and one raw RSA-2048 signature (node:crypto, SHA-256
 *                over 32 bytes), so the reader sees what the engine adds;
 *   verification the signed 1 MB PDF verified BENCH_VERIFICATIONS (10) times through the PDF worker pool
 *                (core/pdf-work, one worker, as engine.verify runs it: bytes moved to the worker, report cloned
 *                back), after one warm-up that starts the worker; and the same file with one more revision of 5,000
 *                signature fields sharing its signature's ByteRange and /Contents (the denial-of-service shape of
 *                tests/helpers/pdf-attacks.ts), 3 times.
 * The PDFs get their size from one random-pixel (incompressible) RGB image per page, stored without a filter.
 * The floor next to the pool's rate: SHA-256 of the file and two RSA-2048 signatures per signature, on every core.
 * The targets table (bench/targets.ts) ends the output; measureSigning returns the figures, signingTargets the rows.
 */
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, type KeyObject, randomBytes, sign, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { PdfWorkPool, transferable } from '../core/pdf-work/pool.ts';
import { softwareKey } from '../core/signing/keys.ts';
import { buildNoisePdf } from '../tests/helpers/pdf.ts';
import { signPdf } from '../core/signing/pades.ts';
import { localTimestampAuthority } from '../core/signing/tsa.ts';
import type { SignPdfInput } from '../core/signing/types.ts';
import type { TrustStore } from '../core/signing/verify.ts';
import { repeatByteRange } from '../tests/helpers/pdf-attacks.ts';
import { intFromEnv } from './env.ts';
import { reportTargets, type TargetRow } from './targets.ts';

const SIGNATURES = intFromEnv('BENCH_SIGNATURES', 20, 1);
const LARGE_MB = intFromEnv('BENCH_SIGN_LARGE_MB', 30, 1);
const VERIFICATIONS = intFromEnv('BENCH_VERIFICATIONS', 10, 1);
const POOL_SIGNATURES = intFromEnv('BENCH_POOL_SIGNATURES', 100, 1);
const POOL_WORKERS = intFromEnv('BENCH_SIGN_WORKERS', 2, 1);
const CONCURRENCY = intFromEnv('BENCH_SIGN_CONCURRENCY', 8, 1);
const TARGET = { poolPerSecond: 60, largeWallMs: 100 };
const LARGE_POOL_RUNS = 3;
const COPIES = 5000;
const COPIES_RUNS = 3;
const MB = 1024 * 1024;
const PAGES = 50;
const HASH_RUNS = { small: 50, large: 5 };
const RSA_RUNS = 200;

interface KeyPair {
  privateKey: KeyObject;
  certificate: Uint8Array;
  notAfter: Date;
}

/** An RSA-2048 key and its self-signed certificate, from `openssl req -x509`. */
function opensslKeyPair(dir: string, name: string, subject: string, extensions: string[]): KeyPair {
  const keyFile = path.join(dir, `${name}.key.pem`);
  const certificateFile = path.join(dir, `${name}.cert.pem`);
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '30'],
      ...['-keyout', keyFile, '-out', certificateFile, '-subj', subject],
      ...extensions.flatMap((extension) => ['-addext', extension]),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const certificate = new X509Certificate(readFileSync(certificateFile));
  return {
    privateKey: createPrivateKey(readFileSync(keyFile)),
    certificate: new Uint8Array(certificate.raw),
    notAfter: new Date(certificate.validTo),
  };
}

/** Milliseconds of each of `runs` sequential calls. */
async function timeRuns(runs: number, fn: () => unknown): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times;
}

// RSS is the process's, so a worker sees it while the signing blocks the main thread's event loop. Plain JavaScript
// and no tsx loader (execArgv: []), so the sampler itself stays small.
const SAMPLER = `
const { parentPort } = require('node:worker_threads');
let peak = process.memoryUsage.rss();
let samples = 1;
const timer = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
  samples += 1;
}, 10);
parentPort.on('message', () => {
  clearInterval(timer);
  parentPort.postMessage({ peak: Math.max(peak, process.memoryUsage.rss()), samples: samples + 1 });
});
parentPort.postMessage('ready');
`;

// A full collection before the "before" reading, so the garbage of building the input is not in it and cannot be
// reused, unseen, by the signing. --expose-gc set at run time takes effect in a new context.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

interface MemoryFigures {
  wallMs: number;
  rssBefore: number;
  rssPeak: number;
  samples: number;
}

/** Wall time of `fn`, with the process RSS just before it (after a full GC) and at its peak (sampled every 10 ms). */
async function measureMemory(fn: () => Promise<unknown>): Promise<MemoryFigures> {
  const worker = new Worker(SAMPLER, { eval: true, execArgv: [] });
  try {
    await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    collectGarbage();
    collectGarbage();
    const rssBefore = process.memoryUsage.rss();
    const start = performance.now();
    await fn();
    const wallMs = performance.now() - start;
    const peak = new Promise<{ peak: number; samples: number }>((resolve) => worker.once('message', resolve));
    worker.postMessage('stop');
    const sampled = await peak;
    return { wallMs, rssBefore, rssPeak: Math.max(sampled.peak, rssBefore), samples: sampled.samples };
  } finally {
    await worker.terminate();
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: number[]) => sum(values) / values.length;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export interface SigningFigures {
  small: { bytes: number; signMs: number[]; hashMs: number[] };
  /** signPdf with the PDF worker pool: `signatures` in `wallMs`, `concurrency` in flight on `workers` workers. */
  pool: { workers: number; concurrency: number; signatures: number; wallMs: number; largeWallMs: number };
  large: { bytes: number; sign: MemoryFigures; hashMs: number[] };
  /** The 1-minute load average when the measurements ended: the machine may be shared. */
  loadAverage: number;
  rsaMs: number[];
  verify: { bytes: number; ms: number[] };
  copies: { bytes: number; ms: number[]; reported: number };
}

/** Verifies `pdf` `runs` times in `pool` as engine.verify does (a fresh copy moved to the worker each time). */
async function timeVerifications(
  pool: PdfWorkPool,
  pdf: Uint8Array,
  trust: TrustStore,
  runs: number,
): Promise<{ ms: number[]; reported: number }> {
  let reported = 0;
  const ms = await timeRuns(runs, async () => {
    const bytes = transferable(pdf.slice());
    const options = { now: new Date(), fetchRevocation: true, revocationTimeoutMs: 1000 };
    const report = await pool.run('verify', { pdf: bytes, trust, options, upload: null }, { transfer: [bytes.buffer] });
    reported = report.signatures.length;
  });
  return { ms, reported };
}

/** Makes the keys and PDFs, then runs every measurement; takes ~10-20 s on a laptop-class CPU. */
export async function measureSigning(): Promise<SigningFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'keiyaku-bench-signing-'));
  try {
    const signer = opensslKeyPair(dir, 'signer', '/CN=Keiyaku Bench Signer/O=Keiyaku/C=JP', [
      'keyUsage=critical,digitalSignature,nonRepudiation',
    ]);
    const tsaKey = opensslKeyPair(dir, 'tsa', '/CN=Keiyaku Bench TSA/O=Keiyaku/C=JP', [
      'extendedKeyUsage=critical,timeStamping',
    ]);
    const serviceKey = { purpose: 'local-tsa' as const, ...tsaKey, chain: [] };
    const base: Omit<SignPdfInput, 'pdf'> = {
      key: softwareKey({ privateKey: signer.privateKey, certificate: signer.certificate }),
      level: 'B-T',
      signerName: 'Keiyaku Bench Signer',
      claimedTime: new Date(),
      tsa: localTimestampAuthority(
        async () => serviceKey,
        () => new Date(),
      ),
    };
    const signBT = async (pdf: Uint8Array) => {
      const result = await signPdf({ ...base, pdf });
      if (!result.timestampTime || result.pdf.length <= pdf.length)
        throw new Error('signPdf returned no B-T signature');
      return result;
    };
    const hash = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

    console.log(`Signing: ${SIGNATURES} B-T signatures of a 1 MB, ${PAGES}-page PDF ...`);
    const small = await buildNoisePdf(MB, PAGES);
    await signBT(small); // warm-up: module loading, JIT, the first font and ASN.1 schemas
    const signMs = await timeRuns(SIGNATURES, () => signBT(small));
    const smallHashMs = await timeRuns(HASH_RUNS.small, () => hash(small));
    const digest = randomBytes(32);
    sign('sha256', digest, signer.privateKey);
    const rsaMs = await timeRuns(RSA_RUNS, () => sign('sha256', digest, signer.privateKey));

    console.log(`Signing: one B-T signature of a ${LARGE_MB} MB, ${PAGES}-page PDF, RSS sampled every 10 ms ...`);
    const large = await buildNoisePdf(LARGE_MB * MB, PAGES);
    const largeHashMs = await timeRuns(HASH_RUNS.large, () => hash(large));
    const largeSign = await measureMemory(() => signBT(large));

    console.log(
      `Signing: ${POOL_SIGNATURES} B-T signatures of the 1 MB PDF through a pool of ${POOL_WORKERS} PDF workers, ` +
        `${CONCURRENCY} in flight, then the ${LARGE_MB} MB one ...`,
    );
    const signing = new PdfWorkPool({ workers: POOL_WORKERS, timeoutMs: 60_000, memoryMb: 1024 });
    let pool: SigningFigures['pool'];
    try {
      const pooled = async (pdf: Uint8Array) => {
        const result = await signPdf({ ...base, pdf }, signing);
        if (!result.timestampTime || result.pdf.length <= pdf.length) throw new Error('no B-T signature');
      };
      await Promise.all(Array.from({ length: POOL_WORKERS * 2 }, () => pooled(small))); // starts every worker
      let started = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: Math.min(CONCURRENCY, POOL_SIGNATURES) }, async () => {
          while (started < POOL_SIGNATURES) {
            started += 1;
            await pooled(small);
          }
        }),
      );
      const wallMs = performance.now() - start;
      // One warm-up: the first 30 MB task in a worker grows its heap (hundreds of ms, once per worker).
      await pooled(large);
      const largeWallMs = mean(await timeRuns(LARGE_POOL_RUNS, () => pooled(large)));
      pool = { workers: POOL_WORKERS, concurrency: CONCURRENCY, signatures: POOL_SIGNATURES, wallMs, largeWallMs };
    } finally {
      await signing.close();
    }

    console.log(`Verification: the signed 1 MB PDF ${VERIFICATIONS} times, then ${COPIES} copies of its signature ...`);
    const signed = (await signBT(small)).pdf;
    const copies = await repeatByteRange(signed, COPIES);
    const trust: TrustStore = { anchors: [signer.certificate, tsaKey.certificate], localCa: null };
    const verifying = new PdfWorkPool({ workers: 1, timeoutMs: 20_000, memoryMb: 512 });
    try {
      await timeVerifications(verifying, signed, trust, 1); // warm-up: starts the worker, which loads the parsers
      const verify = await timeVerifications(verifying, signed, trust, VERIFICATIONS);
      const copied = await timeVerifications(verifying, copies, trust, COPIES_RUNS);
      return {
        small: { bytes: small.length, signMs, hashMs: smallHashMs },
        pool,
        large: { bytes: large.length, sign: largeSign, hashMs: largeHashMs },
        loadAverage: os.loadavg()[0]!,
        rsaMs,
        verify: { bytes: signed.length, ms: verify.ms },
        copies: { bytes: copies.length, ms: copied.ms, reported: copied.reported },
      };
    } finally {
      await verifying.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const megabytes = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (value: number) => `${number(value, value < 10 ? 2 : value < 100 ? 1 : 0)} ms`;
const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(1)} %`;

export function formatSigning(figures: SigningFigures): string {
  const { small, pool, large, rsaMs, verify, copies } = figures;
  const { poolRate, floorRate } = rates(figures);
  const smallSign = mean(small.signMs);
  const rsa = mean(rsaMs);
  const smallHash = mean(small.hashMs);
  const largeHash = mean(large.hashMs);
  const largeSign = large.sign.wallMs;
  const smallInput = `${megabytes(small.bytes)} · ${PAGES} pages`;
  const largeInput = `${megabytes(large.bytes)} · ${PAGES} pages`;
  const rows: string[][] = [
    ['operation', 'input', 'runs', 'mean', 'median', 'per second', 'of its B-T signature'],
    [
      'signPdf B-T (local TSA)',
      smallInput,
      String(small.signMs.length),
      ms(smallSign),
      ms(median(small.signMs)),
      `${number(small.signMs.length / (sum(small.signMs) / 1000), 1)} sig/s`,
      '',
    ],
    [
      'SHA-256',
      megabytes(small.bytes),
      String(small.hashMs.length),
      ms(smallHash),
      ms(median(small.hashMs)),
      `${number(small.bytes / MB / (smallHash / 1000))} MB/s`,
      share(smallHash, smallSign),
    ],
    [
      'RSA-2048 sign (SHA-256, 32 bytes)',
      '32 bytes',
      String(rsaMs.length),
      ms(rsa),
      ms(median(rsaMs)),
      `${number(1000 / rsa)} sig/s`,
      `${share(2 * rsa, smallSign)} (×2: signer + TSA)`,
    ],
    [
      `signPdf B-T, pool of ${pool.workers} workers, ${pool.concurrency} in flight`,
      smallInput,
      String(pool.signatures),
      ms(pool.wallMs / pool.signatures),
      '',
      `${number(poolRate, 1)} sig/s`,
      `floor ${number(floorRate)} sig/s`,
    ],
    ['signPdf B-T (local TSA)', largeInput, '1', ms(largeSign), '', `${number(1000 / largeSign, 2)} sig/s`, ''],
    [
      `signPdf B-T, pool of ${pool.workers} workers`,
      largeInput,
      String(LARGE_POOL_RUNS),
      ms(pool.largeWallMs),
      '',
      `${number(1000 / pool.largeWallMs, 2)} sig/s`,
      share(largeHash, pool.largeWallMs),
    ],
    [
      'SHA-256',
      megabytes(large.bytes),
      String(large.hashMs.length),
      ms(largeHash),
      ms(median(large.hashMs)),
      `${number(large.bytes / MB / (largeHash / 1000))} MB/s`,
      share(largeHash, largeSign),
    ],
    [
      'verifyPdf in the PDF worker pool',
      `${megabytes(verify.bytes)} · 1 signature`,
      String(verify.ms.length),
      ms(mean(verify.ms)),
      ms(median(verify.ms)),
      `${number(verify.ms.length / (sum(verify.ms) / 1000), 1)} reports/s`,
      share(mean(verify.ms), smallSign),
    ],
    [
      'verifyPdf in the PDF worker pool',
      `${megabytes(copies.bytes)} · ${number(COPIES + 1)} ByteRanges`,
      String(copies.ms.length),
      ms(mean(copies.ms)),
      ms(median(copies.ms)),
      `${number(copies.ms.length / (sum(copies.ms) / 1000), 1)} reports/s`,
      '',
    ],
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const line = (row: string[]) =>
    row
      .map((cell, column) => (column < 2 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('   ')
      .trimEnd();
  const cpus = os.cpus();
  const { rssBefore, rssPeak, samples } = large.sign;
  const rest = (sign: number, hash: number) => ms(Math.max(0, sign - hash - 2 * rsa));
  return [
    '',
    `PAdES B-T signing (RSA-2048 software keys, built-in TSA in-process, sequential, after 1 warm-up signature)` +
      ` · Node ${process.version} · ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}`,
    line(rows[0]!),
    widths.map((w) => '-'.repeat(w)).join('   '),
    ...rows.slice(1, 5).map(line),
    widths.map((w) => '-'.repeat(w)).join('   '),
    ...rows.slice(5, 8).map(line),
    widths.map((w) => '-'.repeat(w)).join('   '),
    ...rows.slice(8).map(line),
    '',
    `${megabytes(large.bytes)} B-T signature: ${ms(largeSign)} wall; RSS ${megabytes(rssBefore)} before, ` +
      `${megabytes(rssPeak)} at peak (+${megabytes(rssPeak - rssBefore)}, ` +
      `${number((rssPeak - rssBefore) / large.bytes, 1)}× the input; ${samples} samples every 10 ms)`,
    `Beyond SHA-256 of the file and two RSA-2048 signatures, a B-T signature spends ${rest(smallSign, smallHash)} ` +
      `(${megabytes(small.bytes)}) and ${rest(largeSign, largeHash)} (${megabytes(large.bytes)}) ` +
      'in PDF parsing, the incremental save, CMS and timestamp encoding and checks',
    `The floor: ${os.cpus().length} cores each doing SHA-256 of the file and two RSA-2048 signatures per signature, ` +
      'nothing else; the pool rate includes the clone of the 1 MB input to a worker and the in-process TSA.',
    `Verification runs in a worker thread (moving the bytes there, cloning the report back); the ${number(COPIES)}-copy ` +
      `file reports ${copies.reported} signature(s): each distinct ByteRange is verified once`,
  ].join('\n');
}

/** The pool's signatures per second, and the hashing + RSA floor on every core of this machine. */
function rates(figures: SigningFigures): { poolRate: number; floorRate: number } {
  const { pool, small, rsaMs } = figures;
  const floorMs = mean(small.hashMs) + 2 * mean(rsaMs);
  return { poolRate: pool.signatures / (pool.wallMs / 1000), floorRate: (os.cpus().length * 1000) / floorMs };
}

/** The signing targets next to the figures (bench/targets.ts), with the sequential baseline. */
export function signingTargets(figures: SigningFigures): TargetRow[] {
  const { poolRate, floorRate } = rates(figures);
  const { pool, small, large } = figures;
  const load = `load ${figures.loadAverage.toFixed(2)}`;
  return [
    {
      area: 'signing',
      target: `≥ ${TARGET.poolPerSecond} B-T sig/s, 1 MB, signPdf on the pool (${pool.workers} workers)`,
      figure: `${number(poolRate, 1)} sig/s (floor ${number(floorRate)}; ${load})`,
      met: poolRate >= TARGET.poolPerSecond,
    },
    {
      area: 'signing',
      target: 'baseline: signPdf on one thread, sequential, 1 MB',
      figure: `${number(small.signMs.length / (sum(small.signMs) / 1000), 1)} sig/s`,
      met: null,
    },
    {
      area: 'signing',
      target: `≤ ${TARGET.largeWallMs} ms wall, one B-T signature of ${megabytes(large.bytes)} (pool)`,
      figure: `${ms(pool.largeWallMs)} (on one thread ${ms(large.sign.wallMs)}, SHA-256 alone ${ms(mean(large.hashMs))})`,
      met: pool.largeWallMs <= TARGET.largeWallMs,
    },
  ];
}

/** Measures, then prints the table and the targets. */
export async function reportSigning(): Promise<SigningFigures> {
  const figures = await measureSigning();
  console.log(formatSigning(figures));
  reportTargets('Signing targets', signingTargets(figures));
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  reportSigning().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
