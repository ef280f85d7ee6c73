import type { Knex } from 'knex';

// Organizations, users and everything sign-in needs; the operation log is append-only by trigger.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organizations', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('code').notNullable().unique();
    t.text('name').notNullable();
    t.string('corporate_number', 13).unique();
    t.text('plan').notNullable().defaultTo('free').checkIn(['free', 'standard', 'professional']);
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
  });

  await knex.schema.createTable('users', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('login_id').notNullable().unique();
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('locale').notNullable().defaultTo('ja').checkIn(['ja', 'en']);
    t.text('password_hash').notNullable();
    t.timestamp('password_changed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.boolean('must_change_password').notNullable().defaultTo(false);
    t.timestamp('temporary_password_expires_at', { useTz: true });
    t.boolean('is_owner').notNullable().defaultTo(false);
    t.boolean('is_admin').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('active').checkIn(['active', 'deactivated']);
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.index(['organization_id']);
    t.index(['email']);
  });

  await knex.schema.createTable('password_history', (t) => {
    t.bigIncrements('id');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('password_hash').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id', 'created_at']);
  });

  await knex.schema.createTable('password_policies', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.integer('min_length').notNullable().defaultTo(8);
    t.integer('expiry_days');
    t.integer('reuse_count').notNullable().defaultTo(5);
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('terms', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.text('version').notNullable().unique();
    t.text('title_ja').notNullable();
    t.text('title_en').notNullable();
    t.text('body_ja').notNullable();
    t.text('body_en').notNullable();
    t.timestamp('effective_at', { useTz: true }).notNullable();
  });

  await knex.schema.createTable('term_acceptances', (t) => {
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.uuid('term_id').notNullable().references('terms.id');
    t.timestamp('accepted_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'term_id']);
  });

  await knex.schema.createTable('auth_sessions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('last_used_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('revoked_at', { useTz: true });
    t.text('revoked_reason');
    t.text('ip');
    t.text('user_agent');
    t.index(['user_id']);
  });

  await knex.schema.createTable('refresh_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('session_id').notNullable().references('auth_sessions.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('rotated_at', { useTz: true });
    t.index(['session_id']);
  });

  // Keyed by the login ID as typed, so an unknown ID locks exactly like a known one and reveals nothing.
  await knex.schema.createTable('sign_in_throttles', (t) => {
    t.text('login_id').primary();
    t.integer('failure_count').notNullable().defaultTo(0);
    t.timestamp('last_failed_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('locked_until', { useTz: true });
  });

  await knex.schema.createTable('password_reset_tokens', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('token_hash').notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true });
    t.index(['user_id']);
  });

  await knex.schema.createTable('ip_restrictions', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('cidr').notNullable();
    t.text('note').notNullable().defaultTo('');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['organization_id', 'cidr']);
  });

  await knex.schema.createTable('operation_logs', (t) => {
    t.bigIncrements('id');
    // No foreign keys: the log outlives what it mentions.
    t.uuid('organization_id');
    t.uuid('actor_user_id');
    t.text('action').notNullable();
    t.text('target_type');
    t.text('target_id');
    t.text('ip');
    t.text('user_agent');
    t.text('trace_id');
    t.jsonb('details').notNullable().defaultTo('{}');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.text('prev_hash');
    t.text('hash').notNullable().unique();
    t.index(['organization_id', 'id']);
  });
  await knex.raw(`
    CREATE FUNCTION operation_logs_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      RAISE EXCEPTION 'operation_logs is append-only';
    END $$
  `);
  await knex.raw(`
    CREATE TRIGGER operation_logs_no_change BEFORE UPDATE OR DELETE ON operation_logs
      FOR EACH ROW EXECUTE FUNCTION operation_logs_append_only()
  `);

  await knex('terms').insert({
    version: '2026-11-01',
    title_ja: 'Keiyaku 利用規約',
    title_en: 'Keiyaku Terms of Use',
    body_ja:
      '本規約は、Keiyaku(以下「本サービス」)の利用条件を定めるものです。利用者は、本規約に同意したうえで本サービスを利用するものとします。',
    body_en:
      'These terms set out the conditions for using Keiyaku (the "Service"). Users use the Service after agreeing to these terms.',
    effective_at: new Date('2026-11-01T00:00:00Z'),
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
