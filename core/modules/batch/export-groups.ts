import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern } from '../../http/pagination.ts';
import { writeCsv } from '../../contract/csv.ts';
import { MAX_EXPORT_ITEMS } from './table.ts';

/** The groups CSV columns, in the order the export writes them. */
export const GROUP_COLUMNS = ['operation', 'name', 'newName', 'systemLinkId'] as const;

/** The organization's groups matching `filter[q]` (name or ID for system link) as the import's CSV, by name. */
export async function exportGroups(knex: Knex, principal: Principal, q: string | undefined): Promise<string> {
  const scope = knex('groups').where({ organization_id: principal.organizationId });
  if (q?.trim()) {
    const pattern = likePattern(q.trim());
    scope.where((w) => w.whereILike('name', pattern).orWhereILike('system_link_id', pattern));
  }
  const [{ total }] = (await scope.clone().count({ total: '*' })) as [{ total: number }];
  if (Number(total) > MAX_EXPORT_ITEMS) {
    throw new AppError('CSV_EXPORT_LIMIT_EXCEEDED', { params: { max: MAX_EXPORT_ITEMS, total: Number(total) } });
  }
  const rows = await scope
    .orderBy('name')
    .select<{ name: string; system_link_id: string | null }[]>('name', 'system_link_id');
  return writeCsv(
    GROUP_COLUMNS,
    rows.map((g) => ['update', g.name, '', g.system_link_id ?? '']),
  );
}
