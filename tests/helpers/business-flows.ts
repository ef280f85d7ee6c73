/*
 * Test helpers for business flows: a workspace seeded straight into the database (tests that are not about
 * workspaces), flow-scope custom properties and flows created through the real API, and documents/tasks inserted
 * with knex where a test needs a document in a given state without running its whole lifecycle.
 */
import type { TestApp } from './app.ts';

export interface Participant {
  groupId?: string;
  partnerOrganizationId?: string;
  isPublic?: boolean;
  isEditable?: boolean;
}

/** A workspace of the organization with the given participants (defaults: public, not editable). */
export async function seedWorkspace(
  app: TestApp,
  organizationId: string,
  participants: Participant[],
  name = '取引ワークスペース',
) {
  const { knex } = app.service.deps;
  const [workspace] = await knex('workspaces').insert({ organization_id: organizationId, name }).returning('id');
  for (const p of participants) {
    await knex('workspace_participants').insert({
      organization_id: organizationId,
      workspace_id: workspace.id,
      kind: p.groupId ? 'group' : 'organization',
      group_id: p.groupId ?? null,
      partner_organization_id: p.partnerOrganizationId ?? null,
      is_public: p.isPublic ?? true,
      is_editable: p.isEditable ?? false,
    });
  }
  return workspace.id as string;
}

export const flowBody = (attributes: Record<string, unknown>) => ({ data: { type: 'BusinessFlow', attributes } });

/** Creates a business flow through the API (201 expected) and returns the resource. */
export async function createFlow(
  app: TestApp,
  token: string,
  workspaceId: string,
  attributes: Record<string, unknown>,
) {
  const response = await app.api.call('createBusinessFlow', {
    token,
    params: { workspaceId },
    body: flowBody(attributes),
  });
  if (response.status !== 201) throw new Error(`createBusinessFlow failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

/** Creates a flow-scope custom property through the API (201 expected) and returns its id and options. */
export async function createFlowProperty(app: TestApp, token: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('createProperty', {
    token,
    body: { data: { type: 'Property', attributes: { scope: 10, ...attributes } } },
  });
  if (response.status !== 201) throw new Error(`createProperty failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: { options: { id: string; label: string }[] } };
}

/** Inserts a document of a flow in a given status, with optional task rows (group or partner assignees). */
export async function insertDocument(
  app: TestApp,
  flow: { id: string; organizationId: string },
  options: {
    status?: 'in_progress' | 'completed' | 'remanded' | 'cancelled';
    name?: string;
    tasks?: { groupId?: string; partnerOrganizationId?: string; order?: number; status?: string }[];
  } = {},
) {
  const { knex } = app.service.deps;
  const [document] = await knex('documents')
    .insert({
      organization_id: flow.organizationId,
      business_flow_id: flow.id,
      name: options.name ?? '契約書',
      status: options.status ?? 'in_progress',
      current_order: options.status === 'completed' ? null : 1,
    })
    .returning('id');
  for (const task of options.tasks ?? []) {
    await knex('tasks').insert({
      organization_id: flow.organizationId,
      document_id: document.id,
      task_order: task.order ?? 1,
      type: 'approve',
      assignee_kind: task.groupId ? 'group' : 'organization',
      group_id: task.groupId ?? null,
      partner_organization_id: task.partnerOrganizationId ?? null,
      status: task.status ?? 'active',
    });
  }
  return document.id as string;
}
