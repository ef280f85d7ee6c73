import type { Knex } from 'knex';

/*
 * Indexes for the inbox (GET /me/inbox, core/modules/inbox), measured with `npm run bench:flows` at 100,000 flows:
 *
 * - tasks_active_group / tasks_active_partner: the live tasks of a group or partner organization in the order they
 *   became active, so "waiting for me" (oldest first) reads its first rows instead of sorting every live task.
 * - business_flows_created_by: the flows a user created (waiting for others, remanded to me, completed recently).
 * - business_flows_completed: the organization's flows by completion time (completed recently, the last 30 days).
 * - documents_remanded: the few remanded documents, by flow.
 * - document_versions_blocked: the few files the malware scan stopped (malicious or unscannable).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX tasks_active_group ON tasks (group_id, updated_at) WHERE status = 'active' AND group_id IS NOT NULL`,
  );
  await knex.raw(
    `CREATE INDEX tasks_active_partner ON tasks (partner_organization_id, updated_at)
       WHERE status = 'active' AND partner_organization_id IS NOT NULL`,
  );
  await knex.raw('CREATE INDEX business_flows_created_by ON business_flows (created_by, status)');
  await knex.raw(
    `CREATE INDEX business_flows_completed ON business_flows (organization_id, completed_at) WHERE status = 'complete'`,
  );
  await knex.raw(`CREATE INDEX documents_remanded ON documents (business_flow_id) WHERE status = 'remanded'`);
  await knex.raw(
    `CREATE INDEX document_versions_blocked ON document_versions (document_id, version)
       WHERE scan_status IN ('malicious', 'failed')`,
  );
}

export async function down(knex: Knex): Promise<void> {
  for (const name of [
    'document_versions_blocked',
    'documents_remanded',
    'business_flows_completed',
    'business_flows_created_by',
    'tasks_active_partner',
    'tasks_active_group',
  ]) {
    await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  }
}
