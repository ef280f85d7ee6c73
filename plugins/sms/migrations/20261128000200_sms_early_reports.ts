import type { Knex } from 'knex';

// Status reports Twilio posted before the send's answer (and so the message sid) was stored: kept until the
// delivery row gets its sid, then applied (a day at most).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sms_early_reports', (t) => {
    t.text('carrier_message_sid').primary();
    t.text('status').notNullable();
    t.text('error_code');
    t.timestamp('received_at', { useTz: true }).notNullable().index();
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
