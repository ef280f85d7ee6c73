import type { Knex } from 'knex';

/*
 * Mail and SMS waiting for delivery, so that their jobs carry only an id (DESIGN.md "Jobs carry ids, never
 * secrets"). What a message says is rendered when it is sent; its secret parameters (temporary passwords, links
 * with tokens, signing codes) are kept apart as an AES-256-GCM envelope under the master key and wiped once the
 * message is sent (core/mail/outgoing.ts).
 *
 * master_key_check holds one value derived from the master key (never the key): every start compares it, so a
 * wrong KEIYAKU_MASTER_KEY stops the service instead of failing every signature later (core/crypto/key-check.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('outgoing_messages', (t) => {
    t.uuid('id').primary();
    t.text('channel').notNullable().checkIn(['mail', 'sms']);
    t.text('kind').notNullable();
    t.text('to_address').notNullable();
    t.text('locale').notNullable();
    t.jsonb('params').notNullable();
    t.binary('secret_params');
    t.uuid('organization_id');
    t.uuid('user_id');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('sent_at', { useTz: true });
    t.index(['to_address', 'created_at']);
  });

  await knex.schema.createTable('master_key_check', (t) => {
    // One row at most: the primary key can only be true.
    t.boolean('id').primary().defaultTo(true);
    t.text('value').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.check('id', [], 'master_key_check_one_row');
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
