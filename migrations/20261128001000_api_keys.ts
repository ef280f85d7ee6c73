import type { Knex } from 'knex';

/*
 * API keys for integrations: each key acts as a service user of its organization (users.kind = 'service'), which
 * never signs in with a password and is not listed among the users, but joins groups like a person. Only a SHA-256
 * of each secret is stored; a rotation keeps the previous hash working until its overlap ends.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.text('kind').notNullable().defaultTo('person').checkIn(['person', 'service']);
  });
  await knex.schema.createTable('api_keys', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('service_user_id').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.text('prefix').notNullable();
    t.text('secret_hash').notNullable().unique();
    t.text('previous_secret_hash').unique();
    t.timestamp('previous_secret_expires_at', { useTz: true });
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.text('last_used_ip');
    t.timestamp('revoked_at', { useTz: true });
    t.uuid('created_by').references('users.id').onDelete('SET NULL');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.integer('lock_version').notNullable().defaultTo(0);
    t.index(['organization_id', 'created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_keys');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('kind');
  });
}
