import type { CoreDeps } from '../../deps.ts';
import { createGroup, deleteGroup, updateGroup } from '../groups/service.ts';
import type { Actor } from '../users/service.ts';
import { GROUP_COLUMNS } from './export-groups.ts';
import { type ImportTarget, type Operation, type Outcome, rowError } from './run-import.ts';
import type { TableSpec } from './table.ts';

export const GROUPS_TABLE: TableSpec = { columns: GROUP_COLUMNS, required: ['operation', 'name'] };

interface GroupRow {
  id: string;
  name: string;
  system_link_id: string | null;
  lock_version: number;
}

/** The groups import: each row goes through the groups service (createGroup, updateGroup, deleteGroup). */
export function groupsTarget(deps: CoreDeps, actor: Actor): ImportTarget<null> {
  const organizationId = actor.organizationId;
  return {
    name: 'groups',
    keyColumn: 'name',
    async prepare() {
      return null;
    },
    async apply(trx, row, operation: Operation): Promise<Outcome> {
      const { cells } = row;
      const name = cells.name ?? '';
      const systemLinkId = 'systemLinkId' in cells ? cells.systemLinkId || null : undefined;
      if (operation === 'add') {
        if (cells.newName) throw rowError('BATCH_VALUE_INVALID', 'newName', { column: 'newName' });
        await createGroup(deps, trx, actor, { name, ...(systemLinkId !== undefined ? { systemLinkId } : {}) });
        return 'added';
      }
      const group = (await trx('groups').where({ organization_id: organizationId, name }).forUpdate().first()) as
        GroupRow | undefined;
      if (!group) throw rowError('NOT_FOUND', 'name');
      if (operation === 'delete') {
        await deleteGroup(deps, trx, actor, group.id);
        return 'deleted';
      }
      const patch: { name?: string; systemLinkId?: string | null } = {};
      if (cells.newName && cells.newName !== group.name) patch.name = cells.newName;
      if (systemLinkId !== undefined && systemLinkId !== group.system_link_id) patch.systemLinkId = systemLinkId;
      if (Object.keys(patch).length === 0) return 'unchanged';
      try {
        await updateGroup(deps, trx, actor, group.id, { ...patch, lockVersion: group.lock_version });
      } catch (error) {
        // The service points at `name`; in the file the new name is in `newName`.
        const fields = (error as { fields?: { pointer: string }[] }).fields ?? [];
        for (const field of fields)
          if (field.pointer === '/data/attributes/name') field.pointer = '/data/attributes/newName';
        throw error;
      }
      return 'updated';
    },
  };
}
