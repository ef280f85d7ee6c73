import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // An organization's endpoints. The signing secret (and the one before the last rotation, while its overlap lasts)
  // is sealed under the plugin's key with the row id as context; never stored in clear.
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('description').notNullable().defaultTo('');
    t.jsonb('event_types').notNullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.text('disabled_reason').checkIn(['automatic', 'manual']);
    t.timestamp('disabled_at', { useTz: true });
    t.binary('secret_sealed').notNullable();
    t.binary('previous_secret_sealed');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    // The failure streak: the first failed attempt since the last success (null while healthy).
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('last_success_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['organization_id', 'created_at']);
  });
  // One event for one endpoint: its payload as sent (ids only), the webhook-id, where its schedule is.
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.uuid('event_id').notNullable();
    t.text('event_type').notNullable();
    t.text('payload').notNullable();
    t.text('status').notNullable().checkIn(['pending', 'succeeded', 'failed']);
    t.integer('attempts').notNullable().defaultTo(0);
    t.integer('scheduled_attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['endpoint_id', 'event_id']);
  });
  // The delivery log: one row per attempt (no response body kept).
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('endpoint_id').notNullable().references('webhook_endpoints.id').onDelete('CASCADE');
    t.uuid('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.integer('attempt').notNullable();
    t.text('trigger').notNullable().checkIn(['scheduled', 'replay', 'test']);
    t.text('outcome').notNullable();
    t.integer('status_code');
    t.integer('duration_ms').notNullable();
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.index(['endpoint_id', 'attempted_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
