/*
 * How a business flow looks on the wire. Property values are filtered per caller: users of the workspace owner
 * organization see every flow-scope property, partners (clients) only those public to clients; `editable` says
 * whether the caller may change a value (edit rights in the workspace, and for clients editable-by-client).
 */
import type { Knex } from 'knex';
import type { Principal } from '../../http/context.ts';
import {
  type PropertyValueRow,
  propertyValueQuery,
  type ShownPropertyValue,
  shownPropertyValue,
} from '../properties/values.ts';
import { workspaceAccess, workspaceAccessMany, type WorkspaceAccess } from '../workspaces/access.ts';
import type { FlowRow } from './complete.ts';

/** A flow row with the name of its workspace, as the list and detail queries select it. */
export type FlowListRow = FlowRow & { workspace_name: string };

/**
 * The flow-scope values of some flows the caller may see, per flow id: properties of the caller's own organization,
 * and of other organizations only those public to clients.
 */
export async function readFlowProperties(
  db: Knex,
  principal: Principal,
  flows: { id: string; canEdit: boolean }[],
): Promise<Map<string, ShownPropertyValue[]>> {
  const result = new Map<string, ShownPropertyValue[]>();
  if (flows.length === 0) return result;
  const canEdit = new Map(flows.map((f) => [f.id, f.canEdit]));
  const rows = (await propertyValueQuery(db, 'business_flow')
    .whereRaw('v.target_id = ANY(?::uuid[])', [flows.map((f) => f.id)])
    .where((w) => w.where('p.organization_id', principal.organizationId).orWhere('p.public_to_client', true))
    .options({ prepare: true })) as PropertyValueRow[];
  for (const row of rows) {
    const isClient = row.organization_id !== principal.organizationId;
    const list = result.get(row.target_id) ?? [];
    list.push(shownPropertyValue(row, Boolean(canEdit.get(row.target_id)) && (!isClient || row.editable_by_client)));
    result.set(row.target_id, list);
  }
  return result;
}

/** The caller's access to each workspace of some flows, in two queries whatever the page holds. */
export async function accessByWorkspace(
  db: Knex,
  principal: Principal,
  workspaceIds: string[],
): Promise<Map<string, WorkspaceAccess>> {
  const ids = [...new Set(workspaceIds)];
  if (ids.length === 0) return new Map();
  // = ANY(array) and prepared: one statement for any page (core/db/prepared-client.ts).
  const workspaces = await db('workspaces')
    .whereRaw('id = ANY(?::uuid[])', [ids])
    .select('id', 'organization_id', 'name', 'mail_notification')
    .options({ prepare: true });
  return workspaceAccessMany(db, principal, workspaces);
}

export interface FlowDocumentSummary {
  id: string;
  name: string;
  status: string;
  documentType: string;
  currentOrder: number | null;
}

/** The documents of a flow as the detail lists them. */
export async function flowDocuments(db: Knex, flowId: string): Promise<FlowDocumentSummary[]> {
  const rows: {
    id: string;
    name: string;
    status: string;
    document_type: string;
    current_order: number | null;
  }[] = await db('documents')
    .where({ business_flow_id: flowId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .select('id', 'name', 'status', 'document_type', 'current_order');
  return rows.map((d) => ({
    id: d.id,
    name: d.name,
    status: d.status,
    documentType: d.document_type,
    currentOrder: d.current_order,
  }));
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** The JSON:API resource of a flow. */
export function flowResource(
  row: FlowListRow,
  extra: { canEdit: boolean; properties: ShownPropertyValue[]; documents?: FlowDocumentSummary[] },
) {
  return {
    type: 'BusinessFlow' as const,
    id: row.id,
    attributes: {
      name: row.name,
      systemLinkId: row.system_link_id,
      status: row.status,
      comment: row.comment,
      autoComplete: row.auto_complete,
      cancelComment: row.cancel_comment,
      businessFlowTemplateId: row.business_flow_template_id,
      workspace: { id: row.workspace_id, name: row.workspace_name },
      properties: extra.properties,
      canEdit: extra.canEdit && row.status !== 'cancelled',
      ...(extra.documents ? { documents: extra.documents } : {}),
      completedAt: iso(row.completed_at),
      cancelledAt: iso(row.cancelled_at),
      lockVersion: row.lock_version,
      createdAt: iso(row.created_at)!,
      updatedAt: iso(row.updated_at)!,
    },
  };
}

/** Flows with their workspace name (the base of every list, search and export). */
export function flowsWithWorkspace(db: Knex) {
  return db('business_flows as f').select(
    'f.*',
    // A scalar subquery, not a join: PostgreSQL evaluates it only for the rows a page returns, after sorting.
    db.raw('(SELECT w.name FROM workspaces w WHERE w.id = f.workspace_id) AS workspace_name'),
  );
}

/** Turns list rows into resources with the caller's properties and edit rights. */
export async function flowResources(db: Knex, principal: Principal, rows: FlowListRow[]) {
  const access = await accessByWorkspace(
    db,
    principal,
    rows.map((r) => r.workspace_id),
  );
  const canEdit = (row: FlowListRow) => Boolean(access.get(row.workspace_id)?.canEdit);
  const properties = await readFlowProperties(
    db,
    principal,
    rows.map((r) => ({ id: r.id, canEdit: canEdit(r) && r.status !== 'cancelled' })),
  );
  return rows.map((row) => flowResource(row, { canEdit: canEdit(row), properties: properties.get(row.id) ?? [] }));
}

/** The detail body of one flow the caller may see (visibility checked by the caller of this function). */
export async function flowBody(db: Knex, principal: Principal, flowId: string) {
  const row = (await flowsWithWorkspace(db).where('f.id', flowId).first()) as FlowListRow;
  const access = await workspaceAccess(db, principal, row.workspace_id);
  const editable = access.canEdit && row.status !== 'cancelled';
  const properties = await readFlowProperties(db, principal, [{ id: flowId, canEdit: editable }]);
  return {
    data: flowResource(row, {
      canEdit: access.canEdit,
      properties: properties.get(flowId) ?? [],
      documents: await flowDocuments(db, flowId),
    }),
  };
}
