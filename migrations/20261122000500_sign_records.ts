import type { Knex } from 'knex';

// The sign record (seal) ledger: one row per signature, append-only by trigger and hash-chained per organization
// like operation_logs. The signing module writes it; documents do not exist yet, so no foreign keys (the ledger
// outlives what it mentions, as the operation log does).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('sign_records', (t) => {
    t.bigIncrements('id');
    t.uuid('organization_id').notNullable();
    t.uuid('document_id').notNullable();
    t.integer('document_revision').notNullable();
    // A user of the organization; null for a signer from outside it (a one-time user), named in signer_name.
    t.uuid('signer_user_id');
    t.text('signer_name').notNullable();
    // The e-certificate owner when an agent (proxy signer) signed on their behalf.
    t.uuid('on_behalf_of_user_id');
    t.text('signature_type').notNullable();
    t.text('certificate_subject');
    t.text('certificate_serial');
    t.text('certificate_fingerprint');
    t.timestamp('signed_at', { useTz: true }).notNullable();
    t.timestamp('timestamp_at', { useTz: true });
    t.text('document_hash').notNullable();
    t.timestamp('recorded_at', { useTz: true }).notNullable();
    t.text('prev_hash');
    t.text('hash').notNullable().unique();
    t.index(['organization_id', 'id']);
    t.index(['organization_id', 'signed_at']);
  });
  await knex.raw(`
    CREATE FUNCTION sign_records_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'sign_records is append-only';
    END $$
  `);
  await knex.raw(`
    CREATE TRIGGER sign_records_no_change BEFORE UPDATE OR DELETE ON sign_records
      FOR EACH ROW EXECUTE FUNCTION sign_records_append_only()
  `);
  // The download filters the operation log by time within one organization.
  await knex.raw('CREATE INDEX operation_logs_organization_created_at ON operation_logs (organization_id, created_at)');
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
