import type { Knex } from 'knex';

// Custom property definitions, their enum options, and the values business flows and documents hold.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('custom_properties', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.text('system_link_id');
    t.text('name').notNullable();
    t.integer('input_type').notNullable().checkIn(['10', '20', '30', '40']);
    t.integer('scope').notNullable().checkIn(['10', '20']);
    t.boolean('required').notNullable().defaultTo(false);
    t.integer('number_unit').checkIn(['10', '20']);
    t.integer('integer_length');
    t.integer('decimal_length');
    t.decimal('min_value', null);
    t.decimal('max_value', null);
    t.integer('min_length');
    t.integer('max_length');
    t.boolean('allow_newline');
    t.boolean('allow_full_width');
    t.boolean('after_tomorrow');
    t.boolean('public_to_client').notNullable().defaultTo(false);
    t.boolean('editable_by_client').notNullable().defaultTo(false);
    t.integer('options_version').notNullable().defaultTo(0);
    t.integer('lock_version').notNullable().defaultTo(0);
    t.timestamps(true, true);
    t.unique(['organization_id', 'name']);
    t.unique(['organization_id', 'system_link_id']);
  });
  await knex.raw(
    'ALTER TABLE custom_properties ADD CONSTRAINT custom_properties_editable_needs_public ' +
      'CHECK (NOT editable_by_client OR public_to_client)',
  );

  await knex.schema.createTable('property_options', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('property_id').notNullable().references('custom_properties.id').onDelete('CASCADE');
    t.text('label').notNullable();
    t.integer('position').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['property_id', 'position']);
  });

  // One value per property and target; the target tables arrive with business flows and documents, so no FK yet.
  await knex.schema.createTable('property_values', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    // RESTRICT: a property or option with values is "in use" and the service refuses to delete it.
    t.uuid('property_id').notNullable().references('custom_properties.id').onDelete('RESTRICT');
    t.text('target_type').notNullable().checkIn(['business_flow', 'document']);
    t.uuid('target_id').notNullable();
    t.text('text_value');
    t.decimal('number_value', null);
    t.date('date_value');
    t.uuid('option_id').references('property_options.id').onDelete('RESTRICT');
    t.timestamps(true, true);
    t.unique(['property_id', 'target_type', 'target_id']);
    t.index(['organization_id', 'target_type', 'target_id']);
    t.index(['option_id']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
