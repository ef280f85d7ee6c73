import type { Knex } from 'knex';

/*
 * Every change to what a signed-in request's principal (and GET /me) is made of is told on the channel
 * `keiyaku_principal`, delivered when its transaction commits: `s:<session id>` when a session ends, `u:<user id>`
 * when a user, their groups or their roles change, `o:<organization id>` when the organization, its IP allow list,
 * password policy, roles or groups change. Each process listens and drops what it cached
 * (core/auth/principal-cache.ts). Triggers rather than calls in the code: no path that changes these rows (a route,
 * a plugin, the CLI, SQL by an operator) can forget to tell.
 */
const CHANNEL = 'keiyaku_principal';

/** Trigger function → the prefix and the column of the row it tells about. */
const FUNCTIONS = {
  keiyaku_principal_session: ['s', 'id'],
  keiyaku_principal_user: ['u', 'id'],
  keiyaku_principal_organization: ['o', 'id'],
  keiyaku_principal_user_row: ['u', 'user_id'],
  keiyaku_principal_organization_row: ['o', 'organization_id'],
} as const;

/** table → [trigger function, events] */
const TRIGGERS: [string, keyof typeof FUNCTIONS, string][] = [
  // Only the end of a session: its activity time changes once a minute per session and decides nothing cached.
  ['auth_sessions', 'keiyaku_principal_session', 'UPDATE OF revoked_at OR DELETE'],
  ['users', 'keiyaku_principal_user', 'UPDATE OR DELETE'],
  ['organizations', 'keiyaku_principal_organization', 'UPDATE OR DELETE'],
  ['group_members', 'keiyaku_principal_user_row', 'INSERT OR UPDATE OR DELETE'],
  ['user_roles', 'keiyaku_principal_user_row', 'INSERT OR UPDATE OR DELETE'],
  ['ip_restrictions', 'keiyaku_principal_organization_row', 'INSERT OR UPDATE OR DELETE'],
  ['password_policies', 'keiyaku_principal_organization_row', 'INSERT OR UPDATE OR DELETE'],
  ['roles', 'keiyaku_principal_organization_row', 'UPDATE OR DELETE'],
  ['groups', 'keiyaku_principal_organization_row', 'UPDATE OR DELETE'],
];

export async function up(knex: Knex): Promise<void> {
  for (const [name, [prefix, column]] of Object.entries(FUNCTIONS)) {
    // The row before the change (OLD) where there is one: an update moving a row tells about where it was too.
    await knex.raw(`
      CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('${CHANNEL}', '${prefix}:' || OLD.${column}); END IF;
        IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('${CHANNEL}', '${prefix}:' || NEW.${column}); END IF;
        RETURN NULL;
      END $$`);
  }
  for (const [table, fn, events] of TRIGGERS) {
    await knex.raw(
      `CREATE TRIGGER ${table}_principal_notify AFTER ${events} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`,
    );
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const [table] of TRIGGERS) await knex.raw(`DROP TRIGGER IF EXISTS ${table}_principal_notify ON ${table}`);
  for (const name of Object.keys(FUNCTIONS)) await knex.raw(`DROP FUNCTION IF EXISTS ${name}()`);
}
