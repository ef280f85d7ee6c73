import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { isolatedDatabase } from '../../tests/helpers/databases.ts';
import { type Database, executeOnConnection, openDatabase } from '../db/index.ts';
import { createLogger } from '../log.ts';
import { JobQueue, type JobTiming } from './index.ts';
import { hostKey } from './liveness.ts';

// Short timings so the expiry and the heartbeat happen within a test: a 2 s visibility timeout, heartbeats every
// 0.5 s, pg-boss's maintenance (which expires jobs) every second.
const FAST: Partial<JobTiming> = {
  heartbeatSeconds: 0.5,
  expireSeconds: 2,
  maintenanceSeconds: 1,
  deadAfterSeconds: 3,
};
const logger = createLogger(process.env.KEIYAKU_TEST_LOG ?? 'silent');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: Database;
let drop: () => Promise<void>;
const queues: JobQueue[] = [];

beforeAll(async () => {
  const isolated = await isolatedDatabase(inject('dbKind'), inject('dbTemplate'));
  drop = isolated.drop;
  database = await openDatabase(isolated.config);
});
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.stop();
});
afterAll(async () => {
  await database.close();
  await drop();
});

function queue(timing: Partial<JobTiming> = FAST, runWorkers = true): JobQueue {
  const jobs = new JobQueue(database, logger, { pollingIntervalSeconds: 0.2, timing, runWorkers });
  queues.push(jobs);
  return jobs;
}

/** A queue that only sends (no workers, no instance): the web process of a deployment with separate workers. */
async function producer(name: string, policy: Parameters<JobQueue['register']>[2] = {}): Promise<JobQueue> {
  const jobs = queue(FAST, false);
  jobs.register(name, async () => {}, policy);
  await jobs.start();
  return jobs;
}

const sql = (text: string, values?: unknown[]) => executeOnConnection(database.knex, text, values);

async function jobRow(id: string) {
  const { rows } = await sql('SELECT state, retry_count FROM pgboss.job WHERE id = $1', [id]);
  return rows[0] as { state: string; retry_count: number };
}

/** Marks a queued job active, as a fetch by some process would; with `instance`, claimed by that instance. */
async function takeOver(
  name: string,
  id: string,
  instance?: { id: string; host: string; pid: number; silentS: number },
) {
  await sql(`UPDATE pgboss.job SET state = 'active', started_on = now() WHERE name = $1 AND id = $2`, [name, id]);
  if (!instance) return;
  await sql(
    `INSERT INTO job_worker_instances (id, host, pid, heartbeat_at) VALUES ($1, $2, $3, now() - $4 * interval '1 second')`,
    [instance.id, instance.host, instance.pid, instance.silentS],
  );
  await sql('INSERT INTO job_claims (job_id, queue, instance_id) VALUES ($1, $2, $3)', [id, name, instance.id]);
}

/** The pid of a process that has exited (nothing runs under it now). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('JobQueue visibility timeout and heartbeat', () => {
  it('runs a job whose handler outlives the expiry exactly once while its worker is alive', async () => {
    const name = `test.long-${randomUUID()}`;
    const jobs = queue();
    const runs: number[] = [];
    jobs.register(
      name,
      async (job) => {
        runs.push(job.retryCount);
        await sleep(6_000); // three times the 2 s expiry; maintenance runs every second meanwhile
      },
      { retryDelaySeconds: 1, retryBackoff: false },
    );
    await jobs.start();
    const id = (await jobs.send(name, {}))!;
    await expect.poll(() => jobRow(id).then((r) => r.state), { timeout: 15_000, interval: 200 }).toBe('completed');
    expect(runs).toEqual([0]);
    expect((await jobRow(id)).retry_count).toBe(0);
  }, 30_000);

  it('puts back a job whose worker stopped beating once its expiry passes (the backstop)', async () => {
    const name = `test.orphan-${randomUUID()}`;
    const policy = { retryDelaySeconds: 1, retryBackoff: false };
    const sender = await producer(name, policy);
    const runs: number[] = [];
    // A worker that left no claim (it died between pg-boss's fetch and anything else) took the job and vanished.
    const id = (await sender.send(name, {}))!;
    await takeOver(name, id);
    const taken = Date.now();
    const again = queue();
    again.register(name, async (job) => void runs.push(job.retryCount), policy);
    await again.start();
    await expect.poll(() => jobRow(id).then((r) => r.state), { timeout: 15_000, interval: 200 }).toBe('completed');
    expect(Date.now() - taken).toBeGreaterThanOrEqual(2_000); // not before the expiry
    expect(runs).toEqual([1]);
  }, 30_000);
});

describe('JobQueue at start and on each heartbeat', () => {
  it('resumes at once the jobs of a dead process on this host, and those of a silent one elsewhere in time', async () => {
    const name = `test.resume-${randomUUID()}`;
    // A long expiry: only the instance check, not pg-boss's expiry, can bring these jobs back within the test.
    const setup = await producer(name, { expireSeconds: 600 });
    const killed = (await setup.send(name, { who: 'killed' }))!;
    const elsewhere = (await setup.send(name, { who: 'elsewhere' }))!;
    // A process of this host killed with -9 (its pid is gone), heartbeat only 1 s old: dead by its pid.
    await takeOver(name, killed, { id: randomUUID(), host: hostKey(), pid: deadPid(), silentS: 1 });
    // A process on another host that beat its heart just now: alive until it has been silent for 3 s.
    await takeOver(name, elsewhere, { id: randomUUID(), host: 'other-host', pid: 1, silentS: 0 });

    const jobs = queue();
    const ran = new Map<string, number>();
    jobs.register(name, async (job) => void ran.set(job.id, Date.now()), { expireSeconds: 600 });
    const started = Date.now();
    await jobs.start();
    await expect.poll(() => ran.has(killed), { timeout: 3_000, interval: 50 }).toBe(true);
    expect(ran.get(killed)! - started).toBeLessThan(2_000);
    if (database.kind === 'postgres') {
      expect(ran.has(elsewhere)).toBe(false); // still presumed alive
      expect((await jobRow(elsewhere)).state).toBe('active');
    }
    // Silent for more than deadAfterSeconds (3 s): the next heartbeat puts its job back. (On the embedded PGlite no
    // other process can be running at all, so it went back at start.)
    await expect.poll(() => ran.has(elsewhere), { timeout: 8_000, interval: 100 }).toBe(true);
    await expect.poll(() => jobRow(killed).then((r) => r.state), { timeout: 5_000 }).toBe('completed');
    expect((await jobRow(killed)).retry_count).toBe(1);
    const { rows } = await sql('SELECT count(*)::int AS n FROM job_worker_instances WHERE id <> ALL($1::uuid[])', [[]]);
    expect(rows[0]!.n).toBe(1); // only the running queue is left registered
  }, 30_000);

  it('leaves a job alone while its worker on this host is alive and beating', async () => {
    const name = `test.alive-${randomUUID()}`;
    const first = queue();
    let release!: () => void;
    const holding = new Promise<void>((resolve) => (release = resolve));
    const runs: string[] = [];
    first.register(
      name,
      async () => {
        runs.push('first');
        await holding;
      },
      { expireSeconds: 600 },
    );
    await first.start();
    const id = (await first.send(name, {}))!;
    await expect.poll(() => runs.length, { timeout: 5_000 }).toBe(1);
    // A second worker in the same database starts and beats for a while: it must not take the running job.
    const second = queue();
    second.register(name, async () => void runs.push('second'), { expireSeconds: 600 });
    await second.start();
    await sleep(4_000);
    expect(runs).toEqual(['first']);
    release();
    await expect.poll(() => jobRow(id).then((r) => r.state), { timeout: 5_000 }).toBe('completed');
    expect(runs).toEqual(['first']);
  }, 30_000);
});

describe('JobQueue wake-up on send', () => {
  it.runIf(inject('dbKind') === 'postgres')(
    'runs a job another process sends at once, not at the next poll, and only once its transaction commits',
    async () => {
      const name = `wake-${randomUUID()}`;
      const ran: number[] = [];
      // A worker that would poll only every 30 s: what starts its jobs sooner is the notification.
      const worker = new JobQueue(database, logger, { pollingIntervalSeconds: 30, timing: FAST });
      queues.push(worker);
      worker.register(name, async () => {
        ran.push(Date.now());
      });
      await worker.start();
      const sender = await producer(name);
      await sleep(200); // the worker's first fetch found nothing: it is in its 30 s pause

      const sentAt = Date.now();
      await sender.send(name, {});
      await expect.poll(() => ran.length, { timeout: 5_000, interval: 10 }).toBe(1);
      const latencyMs = ran[0]! - sentAt;
      console.info(`job wake-up latency: ${latencyMs} ms (polling interval 30 s)`);
      expect(latencyMs).toBeLessThan(3_000);

      let committedAt = 0;
      await database.knex.transaction(async (trx) => {
        await sender.send(name, {}, { trx });
        await sleep(300);
        committedAt = Date.now();
      });
      await expect.poll(() => ran.length, { timeout: 5_000, interval: 10 }).toBe(2);
      expect(ran[1]!).toBeGreaterThanOrEqual(committedAt);
    },
  );
});
