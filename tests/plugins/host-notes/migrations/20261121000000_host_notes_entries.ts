import type { Knex } from 'knex';

// The table of a test plugin, created by the plugin host from the plugin's own migrations folder.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('host_notes_entries', (t) => {
    t.increments('id');
    t.text('text').notNullable();
    t.text('job_id').notNullable();
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
