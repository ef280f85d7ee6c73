import type { Knex } from 'knex';

/*
 * Reading positions become real ([6/8]): each names a document-scope custom property and a rectangle on a page of
 * the template's sample PDF, stored with the template. Positions stored under the earlier placeholder shape (no
 * propertyId) named nothing to read and are dropped; the others stay. The sample is a content-addressed blob like document files.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `UPDATE document_templates
        SET reading_positions = coalesce(
          (SELECT jsonb_agg(p) FROM jsonb_array_elements(reading_positions) p WHERE p \\? 'propertyId'), '[]'::jsonb)
      WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(reading_positions) p WHERE NOT p \\? 'propertyId')`,
  );
  await knex.schema.alterTable('document_templates', (t) => {
    t.text('sample_sha256');
    t.text('sample_file_name');
    t.bigInteger('sample_size');
    t.integer('sample_page_count');
    t.timestamp('sample_uploaded_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('document_templates', (t) => {
    t.dropColumns('sample_sha256', 'sample_file_name', 'sample_size', 'sample_page_count', 'sample_uploaded_at');
  });
}
