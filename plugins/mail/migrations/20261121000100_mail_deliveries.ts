import type { Knex } from 'knex';

// One row per delivered mail; the id is the queued mail's id, which makes delivery idempotent.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id');
    t.uuid('user_id');
    t.text('kind').notNullable();
    t.text('to_address').notNullable();
    t.text('subject').notNullable();
    t.text('transport').notNullable().checkIn(['smtp', 'outbox']);
    t.text('message_id').notNullable();
    t.timestamp('delivered_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'delivered_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
