/*
 * What an integration event payload says about a flow and a document, and which organizations may hear of it: the
 * workspace owner organization, and partner organizations that see the flow as an organization (a public partner
 * participant of the workspace, or the assignee of one of the flow's tasks). A draft flow is only the owner's.
 * One statement reads both: an event is queued inside the transaction of its change, and a signature that completes
 * its document and flow queues four of them (four round trips each, before).
 */
import type { Knex } from 'knex';
import type { LinkedRef } from './types.ts';

/** The ids and systemLinkIds of a flow's workspace and the flow, from the owner organization's rows. */
export interface FlowRefs {
  workspace: LinkedRef;
  businessFlow: LinkedRef & { name: string };
}

/** A flow's refs, its owner organization and the organizations that may hear of its events (the owner first). */
export interface FlowEventContext {
  refs: FlowRefs;
  ownerOrganizationId: string;
  audience: string[];
}

interface ContextRow {
  id: string;
  system_link_id: string | null;
  name: string;
  status: string;
  organization_id: string;
  workspace_id: string;
  workspace_system_link_id: string | null;
  /** JSON arrays (json, which both PostgreSQL drivers parse the same way). */
  public_partners: (string | null)[];
  assigned_partners: (string | null)[];
}

function contextQuery(trx: Knex) {
  return trx('business_flows as f')
    .join('workspaces as w', 'w.id', 'f.workspace_id')
    .select(
      'f.id',
      'f.system_link_id',
      'f.name',
      'f.status',
      'f.organization_id',
      'w.id as workspace_id',
      'w.system_link_id as workspace_system_link_id',
      trx.raw(
        `array_to_json(ARRAY(SELECT p.partner_organization_id FROM workspace_participants p
          WHERE p.workspace_id = w.id AND p.kind = 'organization' AND p.is_public
            AND p.partner_organization_id IS NOT NULL)) AS public_partners`,
      ),
      trx.raw(
        `array_to_json(ARRAY(SELECT DISTINCT t.partner_organization_id FROM tasks t
          JOIN documents td ON td.id = t.document_id
          WHERE td.business_flow_id = f.id AND t.partner_organization_id IS NOT NULL)) AS assigned_partners`,
      ),
    );
}

function contextOf(row: ContextRow): FlowEventContext {
  const owner = row.organization_id;
  const partners =
    row.status === 'draft'
      ? []
      : [...row.public_partners, ...row.assigned_partners].filter((id): id is string => !!id && id !== owner);
  return {
    ownerOrganizationId: owner,
    audience: [owner, ...new Set(partners)],
    refs: {
      workspace: { id: row.workspace_id, systemLinkId: row.workspace_system_link_id ?? null },
      businessFlow: { id: row.id, systemLinkId: row.system_link_id ?? null, name: row.name },
    },
  };
}

/** The flow's refs and audience. */
export async function flowEventContext(trx: Knex, businessFlowId: string): Promise<FlowEventContext> {
  const row: ContextRow | undefined = await contextQuery(trx).where('f.id', businessFlowId).first();
  if (!row) throw new Error(`business flow ${businessFlowId} not found`);
  return contextOf(row);
}

/** A document's refs with its flow's, and the flow's audience. */
export async function documentEventContext(
  trx: Knex,
  documentId: string,
): Promise<FlowEventContext & { document: LinkedRef & { name: string } }> {
  const row:
    (ContextRow & { document_id: string; document_system_link_id: string | null; document_name: string }) | undefined =
    await contextQuery(trx)
      .join('documents as d', 'd.business_flow_id', 'f.id')
      .where('d.id', documentId)
      .first('d.id as document_id', 'd.system_link_id as document_system_link_id', 'd.name as document_name');
  if (!row) throw new Error(`document ${documentId} not found`);
  return {
    ...contextOf(row),
    document: { id: row.document_id, systemLinkId: row.document_system_link_id ?? null, name: row.document_name },
  };
}
