import type { Knex } from 'knex';

// One row per SMS handed to a carrier gateway: written ('sending') before the carrier is called, so a retried job
// never sends a message twice once the carrier's message sid is known; then the carrier's status reports.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sms_deliveries', (t) => {
    t.uuid('message_id').primary(); // outgoing_messages.id
    t.uuid('organization_id');
    t.text('gateway').notNullable();
    t.text('carrier_message_sid').unique();
    t.text('status').notNullable();
    t.text('error_code');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'created_at']);
  });
  await knex.raw(`alter table sms_deliveries add constraint sms_deliveries_status_check
    check (status in ('sending', 'queued', 'sent', 'delivered', 'undelivered', 'failed'))`);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
