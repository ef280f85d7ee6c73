import type { Knex } from 'knex';

// Two tabs refreshing with the same token at once: the second one gets the pair the first one was issued, for a
// short grace window. A rotated row keeps its successor's id and the successor's refresh token encrypted under a
// key derived from the rotated token itself (never stored), so only the holder of the old token can read it.
// The sealed successor is wiped once the window has passed (core/auth/sessions.ts).
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('refresh_tokens', (t) => {
    t.uuid('successor_id').references('refresh_tokens.id').onDelete('SET NULL');
    t.binary('successor_sealed');
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
