import type { Knex } from 'knex';
import { rowError } from './run-import.ts';

/** A group or role as a CSV cell names it: by its ID for system link or by its name. */
export interface Named {
  id: string;
  name: string;
  system_link_id: string | null;
}

/**
 * Resolves the `;`-separated names in a groups or roles cell. A value matches an item's ID for system link or its
 * name; one that matches two different items is ambiguous, one that matches none is unknown.
 */
export class References {
  private readonly bySystemLinkId = new Map<string, Named>();
  private readonly byName = new Map<string, Named>();

  constructor(items: Named[]) {
    for (const item of items) {
      if (item.system_link_id) this.bySystemLinkId.set(item.system_link_id, item);
      this.byName.set(item.name, item);
    }
  }

  static async load(trx: Knex, table: 'groups' | 'roles', organizationId: string) {
    const rows = await trx(table)
      .where({ organization_id: organizationId })
      .select<Named[]>('id', 'name', 'system_link_id');
    return new References(rows);
  }

  /** The ids of the cell's values, in order; throws the row error of the first unknown or ambiguous one. */
  resolve(values: string[], column: string, unknownCode: 'BATCH_UNKNOWN_GROUP' | 'BATCH_UNKNOWN_ROLE'): string[] {
    const ids = values.map((value) => {
      const bySystemLinkId = this.bySystemLinkId.get(value);
      const byName = this.byName.get(value);
      if (bySystemLinkId && byName && bySystemLinkId.id !== byName.id) {
        throw rowError('BATCH_AMBIGUOUS_REFERENCE', column, { value });
      }
      const found = bySystemLinkId ?? byName;
      if (!found) throw rowError(unknownCode, column, { value });
      return found.id;
    });
    return [...new Set(ids)];
  }

  /** How an export names an item so the import finds it again: its name, or its ID for system link when the name is ambiguous. */
  label(item: Named): string {
    const clash = this.bySystemLinkId.get(item.name);
    return clash && clash.id !== item.id && item.system_link_id ? item.system_link_id : item.name;
  }
}
