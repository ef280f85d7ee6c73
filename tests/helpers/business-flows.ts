/*
 * Test helpers for business flows: flows and flow-scope custom properties created through the real API, and flows
 * and documents (with their task rows) written with knex where a test needs one in a given state without running
 * its whole lifecycle.
 */
import type { TestApp } from './app.ts';
import { seedWorkspace } from './workspaces.ts';

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

/** Writes a business flow row into a workspace (default name 'フロー', status in progress) and returns its id. */
export async function insertFlow(
  app: TestApp,
  organizationId: string,
  workspaceId: string,
  options: { name?: string; status?: 'in_progress' | 'complete' | 'incomplete' | 'cancelled'; createdBy?: string } = {},
) {
  const [flow] = await app.service.deps
    .knex('business_flows')
    .insert({
      organization_id: organizationId,
      workspace_id: workspaceId,
      name: options.name ?? 'フロー',
      status: options.status ?? 'in_progress',
      created_by: options.createdBy ?? null,
    })
    .returning('id');
  return flow.id as string;
}

/** Inserts a document of a flow in a given status, with optional task rows (group or partner assignees). */
export async function insertDocument(
  app: TestApp,
  flow: { id: string; organizationId: string },
  options: {
    status?: 'in_progress' | 'completed' | 'remanded' | 'cancelled';
    name?: string;
    tasks?: TaskRow[];
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
  for (const task of options.tasks ?? []) await insertTask(app, flow.organizationId, document.id, task);
  return document.id as string;
}

/** An approve task row: assigned to a group or a partner organization, order 1 and active unless told. */
export interface TaskRow {
  groupId?: string;
  partnerOrganizationId?: string;
  order?: number;
  status?: 'waiting' | 'active' | 'completed' | 'skipped' | 'cancelled';
  /** Marks the task completed by this user now. */
  completedBy?: string;
}

/** Writes one task row of a document (see {@link TaskRow}). */
export async function insertTask(app: TestApp, organizationId: string, documentId: string, task: TaskRow) {
  await app.service.deps.knex('tasks').insert({
    organization_id: organizationId,
    document_id: documentId,
    task_order: task.order ?? 1,
    type: 'approve',
    assignee_kind: task.groupId ? 'group' : 'organization',
    group_id: task.groupId ?? null,
    partner_organization_id: task.partnerOrganizationId ?? null,
    status: task.status ?? 'active',
    ...(task.completedBy ? { completed_by: task.completedBy, completed_at: new Date() } : {}),
  });
}

/**
 * Seeds a workspace of `organizationId` with its group `groupId` as an editable public participant (and, when
 * given, a partner organization with its own flags), plus one business flow in it. Returns the ids.
 */
export async function seedBusinessFlow(
  app: TestApp,
  input: {
    organizationId: string;
    groupId: string;
    createdBy?: string;
    partner?: { organizationId: string; isPublic?: boolean; isEditable?: boolean };
    status?: 'in_progress' | 'complete' | 'incomplete' | 'cancelled';
    name?: string;
  },
) {
  const workspaceId = await seedWorkspace(
    app,
    input.organizationId,
    [
      { groupId: input.groupId, isEditable: true },
      ...(input.partner
        ? [
            {
              partnerOrganizationId: input.partner.organizationId,
              isPublic: input.partner.isPublic,
              isEditable: input.partner.isEditable,
            },
          ]
        : []),
    ],
    { name: `${input.name ?? 'Deals'} workspace` },
  );
  const businessFlowId = await insertFlow(app, input.organizationId, workspaceId, {
    name: input.name ?? 'Sales contract 2026',
    status: input.status,
    createdBy: input.createdBy,
  });
  return { workspaceId, businessFlowId };
}
