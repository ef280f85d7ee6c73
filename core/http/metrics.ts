/*
 * Prometheus metrics of one service (GET /metrics, prom-client): a registry of its own per service, since tests and
 * benchmarks run several services in one process. What a request costs is one histogram observation; what needs
 * the database (the job queue's depth) is read when Prometheus scrapes, in one query.
 */
import type { Knex } from 'knex';
import type { Context, Middleware, Next } from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { BOSS_SCHEMA } from '../jobs/liveness.ts';
import { assertBearerSecret } from '../access/bearer-secret.ts';
import { AppError } from './errors.ts';

/** Seconds: a list answers in milliseconds, an upload or a signature in seconds. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SIGNING_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The process's own figures (CPU, memory, event loop, GC): collected once per process, whatever its services. */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'keiyaku_' });
  }
  return processRegistry;
}

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly #http = new Histogram({
    name: 'keiyaku_http_request_duration_seconds',
    help: 'Requests by operation (operationId of openapi.yaml; "unmatched" for any other path), method and status class.',
    labelNames: ['operation', 'method', 'status'],
    buckets: HTTP_BUCKETS,
    registers: [this.registry],
  });
  readonly #rateLimited = new Counter({
    name: 'keiyaku_rate_limit_refusals_total',
    help: 'Requests refused with 429 TOO_MANY_REQUESTS, by the limit they were over.',
    labelNames: ['limit'],
    registers: [this.registry],
  });
  readonly #jobs = new Counter({
    name: 'keiyaku_jobs_total',
    help: 'Jobs this process ran to an end, by queue and outcome (completed, failed: retried or given up).',
    labelNames: ['queue', 'outcome'],
    registers: [this.registry],
  });
  readonly #signing = new Histogram({
    name: 'keiyaku_signing_duration_seconds',
    help: 'PAdES signatures this process made, by level, from the PDF in to the signed PDF out (TSA included).',
    labelNames: ['level'],
    buckets: SIGNING_BUCKETS,
    registers: [this.registry],
  });

  constructor(sources: {
    knex: Knex;
    /** The job queue's depth is read from pg-boss's table; absent before the queue is installed. */
    jobDepth?: boolean;
    /** The PDF worker pool's tasks running or waiting. */
    pdfTasksPending?: () => number;
  }) {
    const { knex } = sources;
    new Gauge({
      name: 'keiyaku_db_pool_connections',
      help: 'Connections of the database pool by state (used, free) and requests waiting for one (pending).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const pool = (knex.client as { pool?: TarnPool }).pool;
        if (!pool) return;
        this.set({ state: 'used' }, pool.numUsed());
        this.set({ state: 'free' }, pool.numFree());
        this.set({ state: 'pending' }, pool.numPendingAcquires());
      },
    });
    if (sources.pdfTasksPending) {
      const pending = sources.pdfTasksPending;
      new Gauge({
        name: 'keiyaku_pdf_tasks_pending',
        help: 'PDF tasks (inspection, signing, verification) running or waiting in the worker pool.',
        registers: [this.registry],
        collect() {
          this.set(pending());
        },
      });
    }
    if (sources.jobDepth) {
      new Gauge({
        name: 'keiyaku_job_queue_depth',
        help: 'Jobs in the queue (shared by every process) by queue and state: created, retry, active.',
        labelNames: ['queue', 'state'],
        registers: [this.registry],
        async collect() {
          this.reset();
          const { rows } = await knex.raw(
            `SELECT name, state, count(*)::int AS n FROM ${BOSS_SCHEMA}.job
              WHERE state IN ('created', 'retry', 'active') GROUP BY name, state`,
          );
          for (const row of rows as { name: string; state: string; n: number }[]) {
            this.set({ queue: row.name, state: row.state }, row.n);
          }
        },
      });
    }
  }

  /** Times every request; outermost, so it sees the status the error mapper settled on. */
  middleware(): Middleware {
    return async (ctx: Context, next: Next) => {
      const end = this.#http.startTimer();
      try {
        await next();
      } finally {
        end({
          operation: (ctx.state.operationId as string | undefined) ?? 'unmatched',
          method: ctx.method,
          status: `${Math.floor(ctx.status / 100)}xx`,
        });
      }
    };
  }

  rateLimited(limit: string): void {
    this.#rateLimited.inc({ limit });
  }

  job(queue: string, outcome: 'completed' | 'failed'): void {
    this.#jobs.inc({ queue, outcome });
  }

  signed(level: string, seconds: number): void {
    this.#signing.observe({ level }, seconds);
  }

  /** GET /metrics: 404 unless a token is configured, 401 unless the request carries it. */
  async answer(token: string | null, authorization: string | undefined) {
    if (!token) throw new AppError('ROUTE_NOT_FOUND');
    assertBearerSecret(token, authorization);
    const merged = Registry.merge([processMetrics(), this.registry]);
    return { body: await merged.metrics(), headers: { 'Content-Type': merged.contentType } };
  }
}

interface TarnPool {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}
