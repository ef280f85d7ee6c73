import type { Knex } from 'knex';

/*
 * The home screen's "remanded to me" read every remanded document of the platform (documents_remanded holds them by
 * flow) and then kept the caller's: a cost that grew with every other tenant's remands. It now reads the remanded
 * documents of the organizations that can concern the caller (core/modules/inbox/inbox.ts callerOrganizations),
 * from this index, which holds them by organization.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX documents_remanded_org ON documents (organization_id, business_flow_id) WHERE status = 'remanded'`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS documents_remanded_org');
}
