import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One reading of one document version: queued by the upload's clean scan (trigger 'upload', once per version) or
  // by a person ('manual'). `pages_total` pages are to be read; `pages` were read and counted in usage (ocrPages).
  await knex.schema.createTable('ai_ocr_readings', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('document_id').notNullable().references('documents.id').onDelete('CASCADE');
    t.uuid('document_version_id').notNullable().references('document_versions.id').onDelete('CASCADE');
    t.integer('version').notNullable();
    t.uuid('document_template_id').references('document_templates.id').onDelete('SET NULL');
    // The positions read, as the template had them when the reading was queued.
    t.jsonb('positions').notNullable();
    t.text('trigger').notNullable().checkIn(['upload', 'manual']);
    t.text('status').notNullable().checkIn(['queued', 'reading', 'done', 'failed', 'skipped']);
    t.integer('pages_total').notNullable().defaultTo(0);
    t.integer('pages_done').notNullable().defaultTo(0);
    t.integer('pages').notNullable().defaultTo(0);
    t.text('error_code');
    t.uuid('requested_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.index(['document_id', 'created_at']);
    t.index(['organization_id', 'status']);
    t.index(['document_version_id']);
    t.index(['requested_by']);
  });
  await knex.raw(
    `CREATE UNIQUE INDEX ai_ocr_readings_upload_once ON ai_ocr_readings (document_version_id) WHERE trigger = 'upload'`,
  );
  // A document is read by one job at a time.
  await knex.raw(
    `CREATE UNIQUE INDEX ai_ocr_readings_one_open ON ai_ocr_readings (document_id) WHERE status IN ('queued', 'reading')`,
  );
  // What a reading proposes for one property, and what a person (or the auto-accept rule) decided.
  await knex.schema.createTable('ai_ocr_proposals', (t) => {
    t.uuid('id').primary();
    t.uuid('reading_id').notNullable().references('ai_ocr_readings.id').onDelete('CASCADE');
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('property_id').notNullable().references('custom_properties.id').onDelete('CASCADE');
    t.integer('page').notNullable();
    t.double('x').notNullable();
    t.double('y').notNullable();
    t.double('width').notNullable();
    t.double('height').notNullable();
    t.text('raw').notNullable();
    t.text('value');
    t.text('note');
    t.text('source').notNullable().checkIn(['text', 'ocr']);
    t.double('confidence').notNullable();
    t.text('status')
      .notNullable()
      .defaultTo('proposed')
      .checkIn(['proposed', 'accepted', 'edited', 'rejected', 'auto_accepted']);
    t.uuid('decided_by').references('users.id').onDelete('SET NULL');
    t.timestamp('decided_at', { useTz: true });
    t.index(['reading_id']);
    t.index(['property_id']);
    t.index(['decided_by']);
  });
  await knex.schema.createTable('ai_ocr_settings', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.double('auto_accept_confidence');
    t.uuid('updated_by').references('users.id').onDelete('SET NULL');
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('ai_ocr_settings');
  await knex.schema.dropTable('ai_ocr_proposals');
  await knex.schema.dropTable('ai_ocr_readings');
}
