import type { Knex } from 'knex';

/*
 * One-time users sign too:
 * - sign_records: a guest signer has signer_user_id null; the ledger keeps the address the guest proved
 *   (signer_email) and the one-time user's id (signer_one_time_user_id, no foreign key: the ledger outlives what it
 *   mentions). Both are hashed only when set, so the rows written before keep their hashes.
 * - signing_codes: a code belongs to a user or to a one-time user (exactly one of them).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('sign_records', (t) => {
    t.text('signer_email');
    t.uuid('signer_one_time_user_id');
  });
  await knex.schema.alterTable('signing_codes', (t) => {
    t.uuid('one_time_user_id').references('one_time_users.id').onDelete('CASCADE');
    t.index(['one_time_user_id', 'task_id', 'created_at']);
  });
  await knex.raw('ALTER TABLE signing_codes ALTER COLUMN user_id DROP NOT NULL');
  await knex.raw(
    `ALTER TABLE signing_codes ADD CONSTRAINT signing_codes_holder CHECK (
       (user_id IS NOT NULL AND one_time_user_id IS NULL) OR (user_id IS NULL AND one_time_user_id IS NOT NULL))`,
  );
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
