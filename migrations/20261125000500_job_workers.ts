import type { Knex } from 'knex';

// Which process runs which job (core/jobs/liveness.ts). Every process that works jobs registers an instance and
// beats its heart; a job it fetches is claimed in the same transaction as the fetch. A process that stops beating
// (kill -9, power loss) is found dead by the next one to look, and the active jobs it claimed go back to the queue
// at once instead of after pg-boss's expiry.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_worker_instances', (t) => {
    t.uuid('id').primary();
    // The host and its PID namespace: a pid means something only there (containers on one host share a hostname).
    t.text('host').notNullable();
    t.integer('pid').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('heartbeat_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // One row per job fetched and not yet released; the job itself lives in pgboss.job (no foreign key: pg-boss owns
  // and partitions that table, and moves rows between its partitions and its archive).
  await knex.schema.createTable('job_claims', (t) => {
    t.uuid('job_id').primary();
    t.text('queue').notNullable();
    t.uuid('instance_id').notNullable().references('job_worker_instances.id').onDelete('CASCADE');
    t.timestamp('claimed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['instance_id']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
