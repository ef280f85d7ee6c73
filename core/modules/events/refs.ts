/*
 * What an integration event payload says about a flow and a document, and which organizations may hear of it: the
 * workspace owner organization, and partner organizations that see the flow as an organization (a public partner
 * participant of the workspace, or the assignee of one of the flow's tasks). A draft flow is only the owner's.
 */
import type { Knex } from 'knex';
import type { LinkedRef } from './types.ts';

/** The ids and systemLinkIds of a flow's workspace and the flow, from the owner organization's rows. */
export interface FlowRefs {
  workspace: LinkedRef;
  businessFlow: LinkedRef & { name: string };
}

/** The flow's refs, with its owner organization and status. */
export async function flowRefs(
  trx: Knex,
  businessFlowId: string,
): Promise<FlowRefs & { ownerOrganizationId: string; status: string }> {
  const row = await trx('business_flows as f')
    .join('workspaces as w', 'w.id', 'f.workspace_id')
    .where('f.id', businessFlowId)
    .first(
      'f.id',
      'f.system_link_id',
      'f.name',
      'f.status',
      'f.organization_id',
      'w.id as workspace_id',
      'w.system_link_id as workspace_system_link_id',
    );
  if (!row) throw new Error(`business flow ${businessFlowId} not found`);
  return {
    ownerOrganizationId: row.organization_id,
    status: row.status,
    workspace: { id: row.workspace_id, systemLinkId: row.workspace_system_link_id ?? null },
    businessFlow: { id: row.id, systemLinkId: row.system_link_id ?? null, name: row.name },
  };
}

/** A document's refs with its flow's. */
export async function documentRefs(trx: Knex, documentId: string) {
  const document = await trx('documents')
    .where({ id: documentId })
    .first('id', 'system_link_id', 'name', 'business_flow_id');
  if (!document) throw new Error(`document ${documentId} not found`);
  const flow = await flowRefs(trx, document.business_flow_id);
  return {
    ...flow,
    document: {
      id: document.id as string,
      systemLinkId: (document.system_link_id as string | null) ?? null,
      name: document.name as string,
    },
  };
}

/** The organizations that may hear of a flow's events: the owner, then partners that see the flow. */
export async function flowAudience(
  trx: Knex,
  flow: { businessFlow: LinkedRef; workspace: LinkedRef; ownerOrganizationId: string; status: string },
): Promise<string[]> {
  if (flow.status === 'draft') return [flow.ownerOrganizationId];
  const publicPartners: { id: string }[] = await trx('workspace_participants')
    .where({ workspace_id: flow.workspace.id, kind: 'organization', is_public: true })
    .whereNotNull('partner_organization_id')
    .select('partner_organization_id as id');
  const assignedPartners: { id: string }[] = await trx('tasks as t')
    .join('documents as d', 'd.id', 't.document_id')
    .where('d.business_flow_id', flow.businessFlow.id)
    .whereNotNull('t.partner_organization_id')
    .distinct('t.partner_organization_id as id');
  const partners = [...publicPartners, ...assignedPartners]
    .map((r) => r.id)
    .filter((id) => id !== flow.ownerOrganizationId);
  return [flow.ownerOrganizationId, ...new Set(partners)];
}
