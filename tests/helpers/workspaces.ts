/*
 * Test helpers for workspaces: valid corporate numbers, members of a chosen group, workspaces through the API, and
 * flows / documents / tasks written straight into the database for tests that are about workspaces only.
 */
import type { TestApp } from './app.ts';
import { currentTermsId, insertUser, PASSWORD, signInBody } from './accounts.ts';

let serial = 0;

/** A valid 13-digit corporate number, different on every call in this process. */
export function corporateNumber(): string {
  serial += 1;
  const body = String((process.pid % 100000) * 10000000 + serial)
    .padStart(12, '0')
    .slice(-12);
  let sum = 0;
  for (let n = 1; n <= 12; n++) sum += Number(body[12 - n]) * (n % 2 === 1 ? 1 : 2);
  return `${9 - (sum % 9)}${body}`;
}

/** A signed-in ordinary user of the organization who is a member of exactly `groupId`. */
export async function memberIn(app: TestApp, organizationId: string, groupId: string) {
  const knex = app.service.deps.knex;
  const loginId = await insertUser(app, organizationId);
  const user = await knex('users').where({ login_id: loginId }).first('id');
  await knex('group_members').where({ user_id: user.id }).update({ group_id: groupId });
  const response = await app.api.call('signIn', { body: signInBody(loginId, PASSWORD, await currentTermsId(app)) });
  if (response.status !== 201) throw new Error(`sign-in failed: ${JSON.stringify(response.body)}`);
  return { id: user.id as string, token: response.body.data.attributes.authorizationToken as string };
}

export interface ParticipantSpec {
  kind: 'group' | 'organization';
  groupId?: string;
  organizationId?: string;
  corporateNumber?: string;
  isPublic?: boolean;
  isEditable?: boolean;
}

export const workspaceBody = (attributes: Record<string, unknown>) => ({ data: { type: 'Workspace', attributes } });
export const participantBody = (attributes: Record<string, unknown>) => ({
  data: { type: 'WorkspaceParticipant', attributes },
});

/** Creates a workspace through the API (201 expected) and returns the Workspace resource. */
export async function createWorkspace(
  app: TestApp,
  token: string,
  participants: ParticipantSpec[],
  extra: Record<string, unknown> = {},
) {
  const response = await app.api.call('createWorkspace', {
    token,
    body: workspaceBody({ name: '取引ワークスペース', participants, ...extra }),
  });
  if (response.status !== 201) throw new Error(`createWorkspace failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

/** Writes a business flow row into a workspace (tests that are not about flows). */
export async function insertFlow(app: TestApp, organizationId: string, workspaceId: string, status = 'in_progress') {
  const [flow] = await app.service.deps
    .knex('business_flows')
    .insert({ organization_id: organizationId, workspace_id: workspaceId, name: 'フロー', status })
    .returning('id');
  return flow.id as string;
}

/** Writes a document with one task assigned to a group or partner organization into a flow. */
export async function insertDocumentWithTask(
  app: TestApp,
  organizationId: string,
  flowId: string,
  assignee: { groupId: string } | { partnerOrganizationId: string },
  documentStatus = 'in_progress',
) {
  const knex = app.service.deps.knex;
  const [document] = await knex('documents')
    .insert({ organization_id: organizationId, business_flow_id: flowId, name: '契約書', status: documentStatus })
    .returning('id');
  await knex('tasks').insert({
    organization_id: organizationId,
    document_id: document.id,
    task_order: 1,
    type: 'approve',
    ...('groupId' in assignee
      ? { assignee_kind: 'group', group_id: assignee.groupId }
      : { assignee_kind: 'organization', partner_organization_id: assignee.partnerOrganizationId }),
  });
  return document.id as string;
}
