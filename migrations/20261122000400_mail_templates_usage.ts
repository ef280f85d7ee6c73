import type { Knex } from 'knex';

// An organization's own mail templates (one per mail kind and language; none means the built-in text) and its
// monthly usage counters (month in Asia/Tokyo, written by the features as they land).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('mail_templates', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('locale').notNullable().checkIn(['ja', 'en']);
    t.text('name').notNullable();
    t.text('summary').notNullable();
    t.text('subject').notNullable();
    t.text('body').notNullable();
    t.integer('lock_version').notNullable().defaultTo(1);
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamps(true, true);
    t.unique(['organization_id', 'kind', 'locale']);
  });

  await knex.schema.createTable('usage_counters', (t) => {
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.string('month', 7).notNullable().checkRegex('^[0-9]{4}-(0[1-9]|1[0-2])$');
    t.text('metric').notNullable().checkIn(['documents', 'signatures', 'oneTimeUsers', 'ocrPages']);
    t.bigInteger('count').notNullable().defaultTo(0);
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['organization_id', 'month', 'metric']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('usage_counters');
  await knex.schema.dropTable('mail_templates');
}
