/*
 * Which process runs which job, so the jobs of a dead process go back to the queue at once.
 *
 * pg-boss alone knows a job is "active", not who runs it: after a kill -9 the job stays active until its expiry. So
 * every process that works jobs registers an instance (job_worker_instances) and claims each job it fetches, in the
 * same transaction as the fetch (job_claims): an active job is never left without its owner being known. Each beat
 * of the heart (every few seconds) marks the instance alive and pushes back the expiry of the jobs it still runs,
 * and looks for dead instances: their active jobs are put back for retry (start_after = now) and the instance is
 * forgotten. An instance is dead when
 *  - it ran on this host (same PID namespace) and its pid is gone, or is our own pid while it is not one of this
 *    process's queues (a container restarted as pid 1 again);
 *  - the database is the embedded PGlite, which one process at a time can open: another instance not of this
 *    process cannot be running;
 *  - it has not beaten its heart for deadAfterSeconds (another host, or a pid of this host that may have been
 *    reused).
 * pg-boss's own expiry (a short expire_in per queue, see index.ts) stays the backstop for anything this misses.
 */
import { randomUUID } from 'node:crypto';
import { readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import { executeOnConnection } from '../db/index.ts';

/** pg-boss's schema (index.ts creates pg-boss with it). */
export const BOSS_SCHEMA = 'pgboss';

/** Instances of this process that are still working: they are alive whatever their pid says. */
const liveHere = new Set<string>();

/** This host as far as pids go: the hostname and, on Linux, the PID namespace (containers may share a hostname). */
export function hostKey(): string {
  try {
    return `${hostname()} ${readlinkSync('/proc/self/ns/pid')}`;
  } catch {
    return hostname();
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * Puts the active claimed jobs of the given instances back: to 'retry' at once while retries remain (pg-boss counts
 * the run when it fetches the job again), to 'failed' when none remain — the same decision pg-boss's own fail
 * makes, without its back-off, since nothing went wrong with the job itself. Updated in place: our queues use the
 * 'standard' policy, which has no unique index on state.
 */
const REQUEUE_SQL = `
  UPDATE ${BOSS_SCHEMA}.job j SET
    state = CASE WHEN j.retry_count < j.retry_limit THEN 'retry' ELSE 'failed' END::${BOSS_SCHEMA}.job_state,
    start_after = CASE WHEN j.retry_count < j.retry_limit THEN now() ELSE j.start_after END,
    completed_on = CASE WHEN j.retry_count < j.retry_limit THEN NULL ELSE now() END,
    output = jsonb_build_object('message', $2::text)
  FROM job_claims c
  WHERE c.instance_id = ANY($1::uuid[]) AND j.name = c.queue AND j.id = c.job_id AND j.state = 'active'
  RETURNING j.name, j.id, j.state`;

/**
 * The expiry pg-boss applies is `started_on + expire_in < now()` (its failJobsByTimeout, run by maintenance). The
 * heartbeat moves started_on, not expire_in: pg-boss sets started_on anew on every fetch, so a bump never outlives
 * the run it was for, whereas expire_in is copied into the retried job when pg-boss fails one (a stretched
 * expire_in would make the next run of that job slow to expire). The cost: pg-boss's startedOn then reads "last
 * heartbeat"; its retry counting only asks whether started_on is null.
 */
const HEARTBEAT_SQL = `
  UPDATE ${BOSS_SCHEMA}.job j SET started_on = now()
  FROM job_claims c
  WHERE c.instance_id = $1 AND j.name = c.queue AND j.id = c.job_id AND j.state = 'active'`;

export interface LivenessOptions {
  /** The database is the embedded PGlite (one process at a time). */
  embedded: boolean;
  /** An instance silent this long is dead (another host). */
  deadAfterSeconds: number;
}

/** This process's registration as a job worker: claims, heartbeat, and the reaping of dead instances. */
export class WorkerInstance {
  readonly id = randomUUID();
  private readonly host = hostKey();

  constructor(
    private readonly knex: Knex,
    private readonly logger: Logger,
    private readonly options: LivenessOptions,
  ) {}

  /** Registers the instance (or registers it again after another process took it for dead). */
  async register(): Promise<void> {
    liveHere.add(this.id);
    await executeOnConnection(
      this.knex,
      `INSERT INTO job_worker_instances (id, host, pid) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()`,
      [this.id, this.host, process.pid],
    );
  }

  /** Claims jobs just fetched, in the fetch's transaction. */
  async claim(trx: Knex.Transaction, queue: string, jobIds: string[]): Promise<void> {
    await executeOnConnection(
      trx,
      `INSERT INTO job_claims (job_id, queue, instance_id) SELECT unnest($1::uuid[]), $2, $3
       ON CONFLICT (job_id) DO UPDATE SET queue = excluded.queue, instance_id = excluded.instance_id,
         claimed_at = now()`,
      [jobIds, queue, this.id],
    );
  }

  /** Forgets the claims of jobs this instance finished with (completed, failed or handed back). */
  async release(jobIds: string[]): Promise<void> {
    await executeOnConnection(this.knex, 'DELETE FROM job_claims WHERE instance_id = $1 AND job_id = ANY($2::uuid[])', [
      this.id,
      jobIds,
    ]);
  }

  /** Marks the instance alive and pushes back the expiry of the jobs it runs; then reaps dead instances. */
  async beat(): Promise<void> {
    const { rows } = await executeOnConnection(
      this.knex,
      'UPDATE job_worker_instances SET heartbeat_at = now() WHERE id = $1 RETURNING id',
      [this.id],
    );
    if (rows.length === 0) {
      // Another process took this one for dead (a long pause) and put its jobs back: they may run twice, which
      // jobs are written to survive (they are idempotent); from now on this instance counts again.
      this.logger.warn({ instance: this.id }, 'job worker instance was presumed dead; registering it again');
      await this.register();
    }
    await executeOnConnection(this.knex, HEARTBEAT_SQL, [this.id]);
    await this.reapDead();
  }

  /** Puts back the active jobs of dead instances and forgets those instances; returns how many jobs went back. */
  async reapDead(): Promise<number> {
    const { rows } = await executeOnConnection(
      this.knex,
      `SELECT id, host, pid, extract(epoch FROM now() - heartbeat_at)::float8 AS silent
       FROM job_worker_instances WHERE id <> $1`,
      [this.id],
    );
    const dead = rows
      .filter((row) => this.isDead(row as { id: string; host: string; pid: number; silent: number }))
      .map((row) => row.id as string);
    if (dead.length === 0) return 0;
    const requeued = await this.requeue(dead, 'the worker process running this job stopped');
    this.logger.warn({ instances: dead, jobs: requeued }, 'jobs of stopped worker processes put back for retry');
    return requeued.length;
  }

  /** Hands back the jobs this instance still holds and unregisters it (graceful stop). */
  async deregister(): Promise<void> {
    liveHere.delete(this.id);
    const requeued = await this.requeue([this.id], 'the worker process stopped before this job finished');
    if (requeued.length > 0) this.logger.warn({ jobs: requeued }, 'unfinished jobs handed back at shutdown');
  }

  private isDead(row: { id: string; host: string; pid: number; silent: number }): boolean {
    if (liveHere.has(row.id)) return false;
    if (this.options.embedded) return true;
    if (row.host === this.host && (row.pid === process.pid || !pidAlive(row.pid))) return true;
    return row.silent > this.options.deadAfterSeconds;
  }

  private async requeue(instances: string[], message: string): Promise<{ queue: string; id: string; state: string }[]> {
    return this.knex.transaction(async (trx) => {
      const { rows } = await executeOnConnection(trx, REQUEUE_SQL, [instances, message]);
      await executeOnConnection(trx, 'DELETE FROM job_worker_instances WHERE id = ANY($1::uuid[])', [instances]);
      return rows.map((row) => ({ queue: row.name as string, id: row.id as string, state: row.state as string }));
    });
  }
}
