import type { Knex } from 'knex';

/*
 * The business flow list reads each visible organization's flows on its own, in the sort order
 * (core/modules/workspaces/access.ts flowsByOrganization): its indexes lead with the organization. With only the
 * indexes of 20261128006000, which hold every organization's flows in one order, a small organization's list walked
 * the whole platform's flows to find its twenty. Those stay for the home screen's sections (flows waiting for others
 * oldest first, completed recently newest first), which still read across organizations.
 */
export async function up(knex: Knex): Promise<void> {
  for (const column of ['created_at', 'updated_at', 'completed_at', 'name']) {
    await knex.raw(
      `CREATE INDEX business_flows_org_${column} ON business_flows (organization_id, ${column}, id)
         WHERE status <> 'draft'`,
    );
  }
}

export async function down(): Promise<void> {
  throw new Error('forward-only migration');
}
