import type { Knex } from 'knex';

// The counters of rate-limiter-flexible's PostgreSQL store (core/access/rate-limits.ts), shared by every API process
// on the database so a limit holds across them. The shape is the library's own (it is told `tableCreated`); keys are
// `<policy>:<sha-256 of the subject>`, so no IP, login ID or address is kept in clear. `expire` is epoch ms.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limits', (t) => {
    t.text('key').primary();
    t.integer('points').notNullable().defaultTo(0);
    t.bigInteger('expire');
  });
  // The sweep of lapsed counters deletes by expiry.
  await knex.schema.alterTable('rate_limits', (t) => t.index(['expire']));
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
