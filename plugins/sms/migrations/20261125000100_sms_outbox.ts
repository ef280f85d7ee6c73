import type { Knex } from 'knex';

// The embedded default SMS gateway: messages are kept here instead of being sent (operators and tests read them).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sms_outbox', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id');
    t.uuid('user_id');
    t.text('phone_number').notNullable();
    t.text('body').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['phone_number', 'created_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
