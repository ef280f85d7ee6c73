import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // Issued statements: monthly invoices and the credit notes against them. No foreign key to organizations: an
  // issued invoice is kept (7 years, as the tax law asks) even after its organization is gone, with the recipient
  // named in `statement`. A row is written once with its facts (number, figures, parties: the claim) and gets its
  // files once (pdf and csv, set together); the trigger refuses any other change and every delete.
  await knex.schema.createTable('billing_statements', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable();
    t.text('kind').notNullable().checkIn(['invoice', 'creditNote']);
    t.text('month').notNullable();
    t.text('number').notNullable().unique();
    t.uuid('original_id').references('billing_statements.id');
    t.bigInteger('subtotal').notNullable();
    t.bigInteger('tax').notNullable();
    t.bigInteger('total').notNullable();
    // Issuer, recipient, plan, options, usage counters, lines, per-rate totals, dates, reason: all that was issued.
    t.jsonb('statement').notNullable();
    t.binary('pdf');
    t.text('pdf_sha256');
    t.binary('csv');
    t.text('csv_sha256');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('files_at', { useTz: true });
    t.index(['organization_id', 'month']);
  });
  // One invoice per organization and month: two closing workers cannot both issue one.
  await knex.raw(
    `CREATE UNIQUE INDEX billing_statements_one_invoice ON billing_statements (organization_id, month) WHERE kind = 'invoice'`,
  );
  await knex.raw(`CREATE SEQUENCE billing_invoice_number_seq`);
  await knex.raw(`CREATE SEQUENCE billing_credit_note_number_seq`);
  await knex.raw(`
    CREATE FUNCTION billing_statements_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        RAISE EXCEPTION 'billing statements are never deleted';
      END IF;
      IF OLD.pdf_sha256 IS NOT NULL
         OR (NEW.id, NEW.organization_id, NEW.kind, NEW.month, NEW.number, NEW.original_id, NEW.subtotal, NEW.tax,
             NEW.total, NEW.statement, NEW.created_at)
            IS DISTINCT FROM
            (OLD.id, OLD.organization_id, OLD.kind, OLD.month, OLD.number, OLD.original_id, OLD.subtotal, OLD.tax,
             OLD.total, OLD.statement, OLD.created_at)
         OR NEW.pdf IS NULL OR NEW.pdf_sha256 IS NULL OR NEW.csv IS NULL OR NEW.csv_sha256 IS NULL THEN
        RAISE EXCEPTION 'billing statements never change once issued';
      END IF;
      RETURN NEW;
    END $$;
  `);
  // One statement per call: PGlite runs raw SQL as a prepared statement.
  await knex.raw(`
    CREATE TRIGGER billing_statements_immutable BEFORE UPDATE OR DELETE ON billing_statements
      FOR EACH ROW EXECUTE FUNCTION billing_statements_immutable();
  `);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
