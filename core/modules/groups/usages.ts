import type { Knex } from 'knex';

/** Something that keeps a group from being deleted while it refers to it. */
export interface GroupUsage {
  /** What uses the group, for the operation log and error details. */
  name: string;
  inUse(trx: Knex.Transaction, groupId: string): Promise<boolean>;
}

/** A group that takes part in a workspace cannot be deleted. */
const workspaceParticipation: GroupUsage = {
  name: 'workspace',
  async inUse(trx, groupId) {
    const hit = await trx('workspace_participants').where({ group_id: groupId }).first(trx.raw('1 AS hit'));
    return Boolean(hit);
  },
};

/** Every usage checked before a group is deleted; later modules append theirs here. */
export const GROUP_USAGES: readonly GroupUsage[] = [workspaceParticipation];

/** The names of what still uses a group (empty when it may be deleted). */
export async function groupUsages(trx: Knex.Transaction, groupId: string): Promise<string[]> {
  const used: string[] = [];
  for (const usage of GROUP_USAGES) if (await usage.inUse(trx, groupId)) used.push(usage.name);
  return used;
}
