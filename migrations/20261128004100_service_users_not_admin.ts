import type { Knex } from 'knex';

/*
 * A key's service user is never an administrator at rest: the request pipeline decides it per operation
 * (core/access/api-key-scopes.ts, apiKeyActsAsAdmin). Keys created before stored is_admin from their scopes; clear
 * it. A revoked key's service user leaves its groups (revokeApiKey now does so), so those groups can be deleted.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('users').where({ kind: 'service', is_admin: true }).update({ is_admin: false });
  await knex('group_members')
    .whereIn('user_id', knex('api_keys').whereNotNull('revoked_at').select('service_user_id'))
    .delete();
}

export async function down(): Promise<void> {
  // Nothing to restore: the old flags granted more than the keys' scopes.
}
