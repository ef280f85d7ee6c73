import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { SCOPES } from '../../contract/property-values.ts';
import { writeCsv } from '../../contract/csv.ts';
import { MAX_EXPORT_ITEMS } from '../batch/table.ts';
import { readFlowProperties, type FlowListRow } from './model.ts';
import { FLOW_SORTABLE } from './search.ts';

export const FLOW_CSV_COLUMNS = [
  'id',
  'systemLinkId',
  'name',
  'status',
  'workspace',
  'createdAt',
  'updatedAt',
  'completedAt',
] as const;

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : '');

/** Orders a scope by the contract's sort key (default newest first), id breaking ties. */
function sorted(scope: Knex.QueryBuilder, sort: string | undefined) {
  const key = sort ?? '-createdAt';
  const descending = key.startsWith('-');
  const column = FLOW_SORTABLE[(descending ? key.slice(1) : key) as keyof typeof FLOW_SORTABLE] ?? 'f.created_at';
  return scope.orderBy([
    { column, order: descending ? 'desc' : 'asc' },
    { column: 'f.id', order: 'asc' },
  ]);
}

/**
 * The flows of a search scope as CSV: fixed columns, then one per flow-scope property the caller may see (own
 * organization's; other organizations' only when public to clients and one of their flows is in the file). More
 * than MAX_EXPORT_ITEMS matches is CSV_EXPORT_LIMIT_EXCEEDED.
 */
export async function exportFlowsCsv(
  knex: Knex,
  principal: Principal,
  scope: Knex.QueryBuilder,
  sort: string | undefined,
): Promise<{ csv: string; count: number }> {
  const [{ total }] = (await scope.clone().clearSelect().clearOrder().count({ total: '*' })) as [{ total: number }];
  if (Number(total) > MAX_EXPORT_ITEMS) {
    throw new AppError('CSV_EXPORT_LIMIT_EXCEEDED', { params: { max: MAX_EXPORT_ITEMS, total: Number(total) } });
  }
  const rows = (await sorted(scope, sort)) as FlowListRow[];
  const owners = [...new Set(rows.map((r) => r.organization_id))];
  const columns: { id: string; name: string }[] = await knex('custom_properties')
    .where('scope', SCOPES.businessFlow)
    .where((w) =>
      w
        .where('organization_id', principal.organizationId)
        .orWhere((o) => o.where('public_to_client', true).whereIn('organization_id', owners)),
    )
    .orderByRaw('organization_id = ? desc, name, id', [principal.organizationId])
    .select('id', 'name');
  const values = await readFlowProperties(
    knex,
    principal,
    rows.map((r) => ({ id: r.id, canEdit: false })),
  );
  const lines = rows.map((row) => {
    const byProperty = new Map((values.get(row.id) ?? []).map((v) => [v.propertyId, v.labelName ?? v.value]));
    return [
      row.id,
      row.system_link_id ?? '',
      row.name,
      row.status,
      row.workspace_name,
      iso(row.created_at),
      iso(row.updated_at),
      iso(row.completed_at),
      ...columns.map((c) => byProperty.get(c.id) ?? ''),
    ];
  });
  return { csv: writeCsv([...FLOW_CSV_COLUMNS, ...columns.map((c) => c.name)], lines), count: rows.length };
}
