import type { Knex } from 'knex';

// Organization information (address, "not subject to corporate number", paid options) and the password policy's
// rule switches. Defaults keep every existing organization exactly where it was (the service baseline).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('organizations', (t) => {
    t.boolean('not_subject_to_corporate_number').notNullable().defaultTo(false);
    t.text('address').notNullable().defaultTo('');
    t.specificType('options', 'text[]').notNullable().defaultTo(knex.raw("'{}'::text[]"));
  });
  await knex.raw(`
    ALTER TABLE organizations
      ADD CONSTRAINT organizations_options_known CHECK (options <@ ARRAY['aiOcr']::text[]),
      ADD CONSTRAINT organizations_corporate_number_choice
        CHECK (NOT (not_subject_to_corporate_number AND corporate_number IS NOT NULL))
  `);

  await knex.schema.alterTable('password_policies', (t) => {
    t.boolean('require_lowercase').notNullable().defaultTo(true);
    t.boolean('require_uppercase').notNullable().defaultTo(false);
    t.boolean('require_digit').notNullable().defaultTo(true);
    t.boolean('require_symbol').notNullable().defaultTo(false);
    t.boolean('forbid_user_id').notNullable().defaultTo(true);
  });
  await knex.raw(`
    ALTER TABLE password_policies
      ADD CONSTRAINT password_policies_min_length_range CHECK (min_length BETWEEN 8 AND 64),
      ADD CONSTRAINT password_policies_reuse_count_range CHECK (reuse_count BETWEEN 0 AND 24),
      ADD CONSTRAINT password_policies_expiry_days_range CHECK (expiry_days IS NULL OR expiry_days BETWEEN 1 AND 999)
  `);
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
