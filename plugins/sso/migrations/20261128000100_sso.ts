import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One identity provider per organization; the client secret only sealed (context: the organization id).
  await knex.schema.createTable('sso_providers', (t) => {
    t.uuid('organization_id').primary().references('organizations.id').onDelete('CASCADE');
    t.text('issuer').notNullable();
    t.text('client_id').notNullable();
    t.binary('client_secret_sealed').notNullable();
    t.text('extra_scopes').notNullable().defaultTo('email profile');
    t.boolean('jit_enabled').notNullable().defaultTo(false);
    t.uuid('jit_group_id').references('groups.id').onDelete('SET NULL');
    t.boolean('sso_only').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  // A user's identity at a provider, linked on the first sign-in (by verified e-mail) or at just-in-time creation.
  await knex.schema.createTable('sso_identities', (t) => {
    t.uuid('id').primary().defaultTo(knex.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.uuid('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('issuer').notNullable();
    t.text('subject').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.unique(['organization_id', 'issuer', 'subject']);
    t.index(['user_id']);
  });
  // A started sign-in: the state is stored hashed, the PKCE verifier sealed (context: the attempt id); it works once.
  // `verified_user_id` keeps the identified user a few minutes while the page asks for the terms consent.
  await knex.schema.createTable('sso_attempts', (t) => {
    t.uuid('id').primary();
    t.uuid('organization_id').notNullable().references('organizations.id').onDelete('CASCADE');
    t.binary('state_hash').notNullable().unique();
    t.binary('binding_hash').notNullable();
    t.text('nonce').notNullable();
    t.binary('verifier_sealed').notNullable();
    t.text('issuer').notNullable();
    t.text('redirect_uri').notNullable();
    t.text('status').notNullable().defaultTo('started').checkIn(['started', 'exchanged', 'awaiting_terms', 'done']);
    t.uuid('verified_user_id').references('users.id').onDelete('CASCADE');
    t.text('verified_subject');
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['expires_at']);
  });
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
