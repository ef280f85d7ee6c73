import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Database, executeOnConnection } from '../db/index.ts';
import { underMigrationLock } from '../db/migrate.ts';
import { BOSS_SCHEMA, WorkerInstance } from './liveness.ts';

/** A job handler: gets the job's id (stable across retries) and data; throwing schedules a retry. */
export type JobHandler<T = unknown> = (job: { id: string; data: T; retryCount: number }) => Promise<void>;

/** Retry policy of one queue. */
export interface QueuePolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  /**
   * The visibility timeout: a job whose worker stops beating its heart for this long is put back by pg-boss's
   * maintenance. Short, because a live worker keeps extending it (see liveness.ts).
   */
  expireSeconds: number;
  /** A handler still running after this long is given up on and its job retried (a hung network call). */
  maxRunSeconds: number;
}

/** How the queue keeps jobs moving when processes die; the defaults suit production, tests shorten them. */
export interface JobTiming {
  /** Between heartbeats (and looks for dead workers). */
  heartbeatSeconds: number;
  /** The default visibility timeout of a queue. */
  expireSeconds: number;
  /** pg-boss's maintenance (which expires jobs) runs this often, across all processes together. */
  maintenanceSeconds: number;
  /** A worker on another host silent this long is dead. */
  deadAfterSeconds: number;
}

/** Jobs one worker takes per fetch; each is still handled, and fails or completes, on its own. */
const JOBS_PER_FETCH = 100;

/** Jobs of one fetch handled at the same time. */
const JOB_CONCURRENCY = 4;

export const DEFAULT_JOB_TIMING: JobTiming = {
  heartbeatSeconds: 10,
  expireSeconds: 60,
  maintenanceSeconds: 15,
  deadAfterSeconds: 45,
};

const DEFAULT_POLICY: Omit<QueuePolicy, 'expireSeconds'> = {
  retryLimit: 10,
  retryDelaySeconds: 15,
  retryBackoff: true,
  maxRunSeconds: 15 * 60,
};

type FetchedJob = PgBoss.JobWithMetadata<unknown>;

/** pg-boss's executor over knex: the pool, or the caller's transaction so a job commits with its data. */
function executorOf(knex: Knex): PgBoss.Db {
  return { executeSql: (text, values) => executeOnConnection(knex, text, values) };
}

/** Pauses that the queue's stop cuts short, and that a job sent to their queue ends early. */
class Pauses {
  private readonly wakers = new Map<() => void, string>();
  /** Queues told of a job while their loop was busy: their next pause ends at once. */
  private readonly told = new Set<string>();

  for(ms: number, queue: string): Promise<void> {
    if (this.told.delete(queue)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakers.set(wake, queue);
    });
  }

  interrupt(queue: string): void {
    let woken = false;
    for (const [wake, name] of [...this.wakers]) {
      if (name !== queue) continue;
      wake();
      woken = true;
    }
    if (!woken) this.told.add(queue);
  }

  interruptAll(): void {
    for (const wake of [...this.wakers.keys()]) wake();
  }
}

/**
 * The channel a sent job is told on (payload: its queue's name) as its transaction commits, so worker processes
 * fetch it at once instead of at their next poll: an API process's scan or mail starts within milliseconds.
 */
const JOBS_CHANNEL = 'keiyaku_jobs';
const LISTEN_RETRY_MS = 5_000;

/**
 * The durable job queue (pg-boss) on PostgreSQL, or on the embedded PGlite through knex's single connection.
 * Sending inside a transaction makes the job part of it: either both the data and the job exist, or neither.
 *
 * Workers are our own fetch loop over pg-boss's fetch/complete/fail rather than pg-boss's work(): work() races each
 * batch against the jobs' expire_in and fails the whole batch when it is exceeded, so a short visibility timeout
 * would cut off every long scan. Here a job fetched is claimed by this process in the same transaction, its expiry
 * is extended by a heartbeat while its handler runs, and it completes or fails on its own as soon as it is done.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, { handler: JobHandler<never>; policy: QueuePolicy }>();
  private readonly timing: JobTiming;
  private readonly instance: WorkerInstance;
  private readonly pauses = new Pauses();
  private readonly loops: Promise<void>[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private listener: pg.Client | null = null;
  private relisten: NodeJS.Timeout | null = null;
  /** Told of every job this process ran to an end (the service's metrics). */
  onOutcome: ((queue: string, outcome: 'completed' | 'failed') => void) | null = null;
  private beating: Promise<unknown> | null = null;
  private started = false;
  private stopping = false;
  /** Set once this process handed its unfinished jobs back: their outcome is no longer ours to record. */
  private handedBack = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: {
      pollingIntervalSeconds?: number;
      runWorkers?: boolean;
      timing?: Partial<JobTiming>;
    } = {},
  ) {
    this.timing = { ...DEFAULT_JOB_TIMING, ...options.timing };
    // PostgreSQL gets pg-boss's own pool; PGlite has one connection, shared through knex's pool of one.
    const connection = db.kind === 'postgres' ? { connectionString: db.url!, max: 4 } : { db: executorOf(db.knex) };
    this.boss = new PgBoss({
      ...connection,
      schema: BOSS_SCHEMA,
      schedule: false,
      // Maintenance is where pg-boss fails expired active jobs (failJobsByTimeout): its default of 120 s would add
      // two minutes to the expiry. One process of all runs it per interval (pg-boss records when it last ran).
      supervise: true,
      maintenanceIntervalSeconds: this.timing.maintenanceSeconds,
    });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
    this.instance = new WorkerInstance(db.knex, logger, {
      embedded: db.kind === 'pglite',
      deadAfterSeconds: this.timing.deadAfterSeconds,
    });
  }

  /** Declares a queue and its handler; call before start(). */
  register<T>(name: string, handler: JobHandler<T>, policy: Partial<QueuePolicy> = {}): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} registered twice`);
    this.handlers.set(name, { handler: handler as JobHandler<never>, policy: this.policyOf(policy) });
  }

  /** Creates pg-boss's schema (idempotent); used by start() and by test templates. */
  async install(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  /**
   * Installs the schema, creates every registered queue and, unless disabled, registers this process as a worker,
   * puts back the jobs of workers that died (a restart resumes them at once) and starts the fetch loops.
   */
  async start(queues: string[] = []): Promise<void> {
    // Processes starting together install the schema and create the queues one after the other (see
    // underMigrationLock).
    await underMigrationLock(this.db.knex, async () => {
      if (!this.started) await this.install();
      const names = new Set([...this.handlers.keys(), ...queues]);
      for (const name of names) {
        const policy = this.handlers.get(name)?.policy ?? this.policyOf({});
        const queue = {
          name,
          retryLimit: policy.retryLimit,
          retryDelay: policy.retryDelaySeconds,
          retryBackoff: policy.retryBackoff,
          expireInSeconds: policy.expireSeconds,
        };
        await this.boss.createQueue(name, queue);
        await this.boss.updateQueue(name, queue); // an existing queue takes the current policy
      }
    });
    if (this.options.runWorkers === false) return;
    await this.instance.register();
    await this.instance.reapDead();
    this.heartbeat = setInterval(() => {
      if (this.beating) return; // the last one is still waiting for the database
      this.beating = this.instance
        .beat()
        .catch((error) => this.logger.error({ err: error }, 'job worker heartbeat failed'))
        .finally(() => (this.beating = null));
    }, this.timing.heartbeatSeconds * 1000);
    this.heartbeat.unref();
    await this.listen();
    for (const name of this.handlers.keys()) this.loops.push(this.work(name));
  }

  /** Enqueues a job; pass the transaction that writes the job's data so both commit together. */
  async send<T extends object>(
    name: string,
    data: T,
    options: { trx?: Knex.Transaction; id?: string; startAfter?: Date } = {},
  ) {
    const sendOptions: PgBoss.SendOptions & { db?: PgBoss.Db } = {};
    if (options.id) sendOptions.id = options.id;
    // Not before this moment (the database's clock): a delivery retried on a schedule of its own (webhooks).
    if (options.startAfter) sendOptions.startAfter = options.startAfter;
    if (options.trx) sendOptions.db = executorOf(options.trx);
    const id = await this.boss.send(name, data, sendOptions);
    // Told on commit (with the transaction's own data); the workers' polling stays the fallback.
    if (this.db.kind === 'postgres' && !options.startAfter) {
      await executeOnConnection(options.trx ?? this.db.knex, 'SELECT pg_notify($1, $2)', [JOBS_CHANNEL, name]);
    }
    return id;
  }

  /** Listens for sent jobs (PostgreSQL): a lost connection is retried; meanwhile the fetch loops poll as before. */
  private async listen(): Promise<void> {
    if (this.db.kind !== 'postgres' || this.stopping) return;
    const client = new pg.Client({ connectionString: this.db.url! });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.listener = null;
      client.end().catch(() => undefined);
      if (this.stopping) return;
      this.logger.warn({ err: error }, 'job queue: lost the listening connection; polling until it is back');
      this.relisten = setTimeout(() => void this.listen(), LISTEN_RETRY_MS);
      this.relisten.unref();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === JOBS_CHANNEL && message.payload) this.pauses.interrupt(message.payload);
    });
    this.listener = client;
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
    }
  }

  /** Counts jobs of a queue by state (admin visibility, tests). */
  async counts(name: string): Promise<Record<string, number>> {
    const { rows } = await executeOnConnection(
      this.db.knex,
      `SELECT state, count(*)::int AS n FROM ${BOSS_SCHEMA}.job WHERE name = $1 GROUP BY state`,
      [name],
    );
    return Object.fromEntries(rows.map((row) => [row.state as string, row.n as number]));
  }

  /** Stops fetching, lets running jobs finish (10 s at most), hands back the rest and stops pg-boss. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.stopping = true;
    this.pauses.interruptAll();
    if (this.relisten) clearTimeout(this.relisten);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    const drained = await Promise.race([
      Promise.all(this.loops).then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000).unref()),
    ]);
    if (!drained) this.logger.warn('jobs still running at shutdown; they are handed back for retry');
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
      this.heartbeat = null;
      await this.beating; // a beat after the deregistration would register this instance again
      this.handedBack = true;
      await this.instance.deregister();
    }
    await this.boss.stop({ graceful: true, wait: true, timeout: 1_000 });
  }

  private policyOf(policy: Partial<QueuePolicy>): QueuePolicy {
    return { ...DEFAULT_POLICY, expireSeconds: this.timing.expireSeconds, ...policy };
  }

  /** One queue's fetch loop: a batch at a time, JOB_CONCURRENCY of it at once, then the next fetch. */
  private async work(name: string): Promise<void> {
    const pollMs = (this.options.pollingIntervalSeconds ?? 2) * 1000;
    while (!this.stopping) {
      let jobs: FetchedJob[] = [];
      try {
        jobs = await this.fetchAndClaim(name);
      } catch (error) {
        this.logger.error({ err: error, job: name }, 'fetching jobs failed');
      }
      if (jobs.length > 0) await this.runBatch(name, jobs);
      // A full batch means more are waiting: fetch again at once. pg-boss fetches once per polling interval too, so
      // a burst (the invitations of a 10,000-row import) is worked off JOBS_PER_FETCH at a time: their cost is CPU
      // outside the database (argon2), which the libuv pool spreads over the cores.
      if (jobs.length < JOBS_PER_FETCH && !this.stopping) await this.pauses.for(pollMs, name);
    }
  }

  /** Fetches (marks active) and claims in one transaction, so no job is active without its owner recorded. */
  private async fetchAndClaim(name: string): Promise<FetchedJob[]> {
    return this.db.knex.transaction(async (trx) => {
      const jobs = await this.boss.fetch<unknown>(name, {
        batchSize: JOBS_PER_FETCH,
        includeMetadata: true,
        db: executorOf(trx),
      });
      if (jobs.length > 0)
        await this.instance.claim(
          trx,
          name,
          jobs.map((job) => job.id),
        );
      return jobs;
    });
  }

  private async runBatch(name: string, jobs: FetchedJob[]): Promise<void> {
    const queue = [...jobs];
    const lanes = Array.from({ length: Math.min(JOB_CONCURRENCY, queue.length) }, async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await this.runOne(name, job);
    });
    await Promise.all(lanes);
    await this.instance
      .release(jobs.map((job) => job.id))
      .catch((error) => this.logger.error({ err: error, job: name }, 'releasing job claims failed'));
  }

  /** Runs one job and completes it, or fails it for retry; a handler past maxRunSeconds is given up on. */
  private async runOne(name: string, job: FetchedJob): Promise<void> {
    const { handler, policy } = this.handlers.get(name)!;
    const log = this.logger.child({ job: name, jobId: job.id });
    let timer: NodeJS.Timeout | undefined;
    const overtime = new Promise<'overtime'>((resolve) => {
      timer = setTimeout(() => resolve('overtime'), policy.maxRunSeconds * 1000);
    });
    try {
      const outcome = await Promise.race([
        handler({ id: job.id, data: job.data as never, retryCount: job.retryCount }).then(() => 'done' as const),
        overtime,
      ]);
      if (outcome === 'overtime') throw new Error(`job ran longer than ${policy.maxRunSeconds} s`);
      // Handed back at shutdown: completing it now could complete another worker's run of it.
      if (!this.handedBack) {
        await this.boss.complete(name, job.id);
        this.onOutcome?.(name, 'completed');
      }
    } catch (error) {
      if (this.handedBack) return;
      this.onOutcome?.(name, 'failed');
      log.warn({ err: error }, 'job failed; it will be retried');
      await this.boss
        .fail(name, job.id, { message: error instanceof Error ? error.message : String(error) })
        .catch((failure) => log.error({ err: failure }, 'marking the job failed did not work; it will expire'));
    } finally {
      clearTimeout(timer);
    }
  }
}
