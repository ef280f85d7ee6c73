import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // When billing started (one row, written by the plugin's first start with the JST month then): the usage
  // counters of that month and of any before it are incomplete, so those months are never closed.
  await knex.schema.createTable('billing_start', (t) => {
    t.text('id').primary().checkIn(['start']);
    t.text('month').notNullable();
    t.timestamp('started_at', { useTz: true }).notNullable();
  });
  // A credit note's client request id (idempotency): one credit note per invoice and request id.
  await knex.schema.alterTable('billing_statements', (t) => {
    t.text('request_id');
  });
  await knex.raw(
    `CREATE UNIQUE INDEX billing_statements_one_per_request ON billing_statements (original_id, request_id) WHERE request_id IS NOT NULL`,
  );
  // The request id is a fact of the statement: it never changes either.
  await knex.raw(`
    CREATE OR REPLACE FUNCTION billing_statements_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'billing statements are never deleted';
      END IF;
      IF OLD.pdf_sha256 IS NOT NULL
         OR (NEW.id, NEW.organization_id, NEW.kind, NEW.month, NEW.number, NEW.original_id, NEW.subtotal, NEW.tax,
             NEW.total, NEW.statement, NEW.created_at, NEW.request_id)
            IS DISTINCT FROM
            (OLD.id, OLD.organization_id, OLD.kind, OLD.month, OLD.number, OLD.original_id, OLD.subtotal, OLD.tax,
             OLD.total, OLD.statement, OLD.created_at, OLD.request_id)
         OR NEW.pdf IS NULL OR NEW.pdf_sha256 IS NULL OR NEW.csv IS NULL OR NEW.csv_sha256 IS NULL THEN
        RAISE EXCEPTION 'billing statements never change once issued';
      END IF;
      RETURN NEW;
    END $$;
  `);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
