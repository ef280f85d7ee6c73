import type { Knex } from 'knex';

/*
 * Idempotency keys of creating operations (core/contract/idempotency.ts): per organization, user, operation and key,
 * a SHA-256 of the request and, once it succeeded, the response to answer a retry with. Rows expire after 24 hours;
 * a row left `running` by a crash may be taken over once its lock lapses.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('idempotency_keys', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable();
    t.text('operation_id').notNullable();
    t.text('key').notNullable();
    t.text('request_hash').notNullable();
    t.text('state').notNullable().checkIn(['running', 'done']);
    t.integer('response_status');
    t.jsonb('response_headers');
    t.jsonb('response_body');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('locked_until', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['organization_id', 'user_id', 'operation_id', 'key']);
    t.index(['organization_id', 'expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('idempotency_keys');
}
