import type { Knex } from 'knex';

// A long-term document whose renewal cannot move its deadline (the TSA certificate of the new timestamp expires no
// later than before) is stalled: the hourly run skips it, so the failure is recorded once instead of every hour.
// An administrator's manual run tries it again; a successful renewal clears it.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('long_term_documents', (t) => {
    t.timestamp('stalled_at', { useTz: true });
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
