import type { Knex } from 'knex';

/*
 * The inbox (GET /me/inbox) and `GET /tasks/mine` at 100,000 flows / 1,000,000 documents (`npm run bench:flows`),
 * each index checked with EXPLAIN ANALYZE on the benchmark's database:
 *
 * - tasks_active_group_order / tasks_active_partner_order: a group's (a partner organization's) live tasks in the
 *   order the lists read them (updated_at = when the task became active, then id), so "waiting for me" oldest first
 *   and "my tasks" newest first read ten or twenty index entries per group instead of sorting every live task.
 *   They replace tasks_active_group / tasks_active_partner (20261128000200), which lacked the id tie-break and the
 *   assignee kind.
 * - tasks_active_roled: live group tasks restricted to a role, by group: the ones a member without that role
 *   cannot execute ("waiting for others").
 * - tasks_active_not_group: live tasks assigned to a partner organization or a guest, by owner organization
 *   ("waiting for others").
 * - business_flows_creator_org: replaces business_flows_created_by with the organization appended, so the
 *   organizations of a user's flows in progress are read from the index alone.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE INDEX tasks_active_group_order ON tasks (group_id, updated_at, id) INCLUDE (document_id, task_order)
       WHERE status = 'active' AND assignee_kind = 'group'`,
  );
  await knex.raw(
    `CREATE INDEX tasks_active_partner_order ON tasks (partner_organization_id, updated_at, id)
       WHERE status = 'active' AND assignee_kind = 'organization'`,
  );
  await knex.raw(
    `CREATE INDEX tasks_active_roled ON tasks (group_id, role_id) WHERE status = 'active' AND role_id IS NOT NULL`,
  );
  await knex.raw(
    `CREATE INDEX tasks_active_not_group ON tasks (organization_id) WHERE status = 'active' AND assignee_kind <> 'group'`,
  );
  await knex.raw('CREATE INDEX business_flows_creator_org ON business_flows (created_by, status, organization_id)');
  await knex.raw('DROP INDEX IF EXISTS tasks_active_group');
  await knex.raw('DROP INDEX IF EXISTS tasks_active_partner');
  await knex.raw('DROP INDEX IF EXISTS business_flows_created_by');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('CREATE INDEX IF NOT EXISTS business_flows_created_by ON business_flows (created_by, status)');
  await knex.raw(
    `CREATE INDEX IF NOT EXISTS tasks_active_partner ON tasks (partner_organization_id, updated_at)
       WHERE status = 'active' AND partner_organization_id IS NOT NULL`,
  );
  await knex.raw(
    `CREATE INDEX IF NOT EXISTS tasks_active_group ON tasks (group_id, updated_at)
       WHERE status = 'active' AND group_id IS NOT NULL`,
  );
  for (const name of [
    'business_flows_creator_org',
    'tasks_active_not_group',
    'tasks_active_roled',
    'tasks_active_partner_order',
    'tasks_active_group_order',
  ]) {
    await knex.raw(`DROP INDEX IF EXISTS ${name}`);
  }
}
