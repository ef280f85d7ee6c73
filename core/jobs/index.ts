import PgBoss from 'pg-boss';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { type Database, executeOnConnection } from '../db/index.ts';

/** A job handler: gets the job's id (stable across retries) and data; throwing schedules a retry. */
export type JobHandler<T = unknown> = (job: { id: string; data: T; retryCount: number }) => Promise<void>;

/** Retry policy of one queue. */
export interface QueuePolicy {
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
}

/** Jobs one worker takes per fetch; each is still handled, and fails or completes, on its own. */
const JOBS_PER_FETCH = 100;

/** Jobs of one fetch handled at the same time. */
const JOB_CONCURRENCY = 4;

const DEFAULT_POLICY: QueuePolicy = { retryLimit: 10, retryDelaySeconds: 15, retryBackoff: true };

/** pg-boss's executor over knex: the pool, or the caller's transaction so a job commits with its data. */
function executorOf(knex: Knex): PgBoss.Db {
  return { executeSql: (text, values) => executeOnConnection(knex, text, values) };
}

/**
 * The durable job queue (pg-boss) on PostgreSQL, or on the embedded PGlite through knex's single connection.
 * Sending inside a transaction makes the job part of it: either both the data and the job exist, or neither.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly handlers = new Map<string, { handler: JobHandler<never>; policy: QueuePolicy }>();
  private started = false;

  constructor(
    private readonly db: Database,
    private readonly logger: Logger,
    private readonly options: { pollingIntervalSeconds?: number; runWorkers?: boolean } = {},
  ) {
    // PostgreSQL gets pg-boss's own pool; PGlite has one connection, shared through knex's pool of one.
    const connection = db.kind === 'postgres' ? { connectionString: db.url!, max: 4 } : { db: executorOf(db.knex) };
    this.boss = new PgBoss({ ...connection, schema: 'pgboss', schedule: false, supervise: true });
    this.boss.on('error', (error) => this.logger.error({ err: error }, 'job queue error'));
  }

  /** Declares a queue and its handler; call before start(). */
  register<T>(name: string, handler: JobHandler<T>, policy: Partial<QueuePolicy> = {}): void {
    if (this.handlers.has(name)) throw new Error(`job ${name} registered twice`);
    this.handlers.set(name, { handler: handler as JobHandler<never>, policy: { ...DEFAULT_POLICY, ...policy } });
  }

  /** Creates pg-boss's schema (idempotent); used by start() and by test templates. */
  async install(): Promise<void> {
    await this.boss.start();
    this.started = true;
  }

  /** Installs the schema, creates every registered queue and, unless disabled, starts the workers. */
  async start(queues: string[] = []): Promise<void> {
    if (!this.started) await this.install();
    const names = new Set([...this.handlers.keys(), ...queues]);
    for (const name of names) {
      const policy = this.handlers.get(name)?.policy ?? DEFAULT_POLICY;
      const queue = {
        name,
        retryLimit: policy.retryLimit,
        retryDelay: policy.retryDelaySeconds,
        retryBackoff: policy.retryBackoff,
      };
      await this.boss.createQueue(name, queue);
      await this.boss.updateQueue(name, queue); // an existing queue takes the current policy
    }
    if (this.options.runWorkers === false) return;
    for (const [name, { handler }] of this.handlers) {
      await this.boss.work(
        name,
        {
          pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2,
          batchSize: JOBS_PER_FETCH,
          includeMetadata: true,
        },
        async (jobs) => {
          // Each job succeeds or fails on its own: a failed one is marked (and retried) here, and pg-boss then
          // completes only the jobs still active. pg-boss fetches once per polling interval, so a burst (the
          // invitations of a 10,000-row import) is worked off JOBS_PER_FETCH at a time, JOB_CONCURRENCY at once:
          // their cost is CPU outside the database (argon2), which the libuv pool spreads over the cores.
          const run = async (job: (typeof jobs)[number]) => {
            try {
              await handler({ id: job.id, data: job.data as never, retryCount: job.retryCount });
            } catch (error) {
              this.logger.child({ job: name, jobId: job.id }).warn({ err: error }, 'job failed; it will be retried');
              await this.boss.fail(name, job.id, { message: error instanceof Error ? error.message : String(error) });
            }
          };
          const queue = [...jobs];
          const lanes = Array.from({ length: Math.min(JOB_CONCURRENCY, queue.length) }, async () => {
            for (let job = queue.shift(); job; job = queue.shift()) await run(job);
          });
          await Promise.all(lanes);
        },
      );
    }
  }

  /** Enqueues a job; pass the transaction that writes the job's data so both commit together. */
  async send<T extends object>(name: string, data: T, options: { trx?: Knex.Transaction; id?: string } = {}) {
    const sendOptions: PgBoss.SendOptions & { db?: PgBoss.Db } = {};
    if (options.id) sendOptions.id = options.id;
    if (options.trx) sendOptions.db = executorOf(options.trx);
    return this.boss.send(name, data, sendOptions);
  }

  /** Counts jobs of a queue by state (admin visibility, tests). */
  async counts(name: string): Promise<Record<string, number>> {
    const { rows } = await executeOnConnection(
      this.db.knex,
      'SELECT state, count(*)::int AS n FROM pgboss.job WHERE name = $1 GROUP BY state',
      [name],
    );
    return Object.fromEntries(rows.map((row) => [row.state as string, row.n as number]));
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({ graceful: true, wait: true, timeout: 10_000 });
  }
}
