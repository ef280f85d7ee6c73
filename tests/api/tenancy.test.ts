import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadContract } from '../../core/contract/document.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { callMultipart, uploadPdf } from '../helpers/documents.ts';
import { sealPng } from '../helpers/signing.ts';
import { corporateNumber } from '../helpers/workspaces.ts';
import {
  type AdminSession,
  adminSession,
  createGroup,
  createUser,
  NO_TASKS,
  temporaryPasswordOf,
} from '../helpers/org-admin.ts';

// Cross-organization isolation: an administrator of organization A walks every operation that takes an id, using
// the ids of organization B, and every list and download of the contract. Nothing of B may be read or changed.

let app: TestApp;
let a: AdminSession;
let b: AdminSession;
/** B's resources, by the path parameter that names them. */
const foreign: Record<string, string> = {};
/** Strings that only B's data contains: its ids, login IDs and names. */
const markers: string[] = [];

/** A's corporate number, valid and unlike any other organization's here. */
const aCorporateNumber = corporateNumber();

const lockOnly = (type: string) => ({ data: { type, attributes: { lockVersion: 0 } } });

/**
 * Every operation with an id in its path, called with B's ids. A new operation that takes an id must be added here
 * (the first test fails until it is), so isolation is proven for it too.
 */
const FOREIGN_CALLS: Record<
  string,
  () => { params: Record<string, string>; body?: unknown; query?: Record<string, string | number> }
> = {
  getUser: () => ({ params: { userId: foreign.userId! } }),
  updateUser: () => ({
    params: { userId: foreign.userId! },
    body: { data: { type: 'User', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteUser: () => ({ params: { userId: foreign.userId! } }),
  deactivateUser: () => ({ params: { userId: foreign.userId! }, body: lockOnly('User') }),
  reactivateUser: () => ({ params: { userId: foreign.userId! }, body: lockOnly('User') }),
  lockUser: () => ({ params: { userId: foreign.userId! }, body: lockOnly('User') }),
  unlockUser: () => ({ params: { userId: foreign.userId! }, body: lockOnly('User') }),
  unblockUserEmail: () => ({ params: { userId: foreign.userId! }, body: lockOnly('User') }),
  resendUserInvitation: () => ({ params: { userId: foreign.userId! } }),
  getGroup: () => ({ params: { groupId: foreign.groupId! } }),
  updateGroup: () => ({
    params: { groupId: foreign.groupId! },
    body: { data: { type: 'Group', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteGroup: () => ({ params: { groupId: foreign.groupId! } }),
  listGroupMembers: () => ({ params: { groupId: foreign.groupId! } }),
  addGroupMember: () => ({
    params: { groupId: foreign.groupId! },
    body: { data: { type: 'GroupMember', attributes: { userId: a.ownerId } } },
  }),
  updateGroupMember: () => ({
    params: { groupId: foreign.groupId!, userId: foreign.userId! },
    body: { data: { type: 'GroupMember', attributes: { isGroupAdmin: true } } },
  }),
  removeGroupMember: () => ({ params: { groupId: foreign.groupId!, userId: foreign.userId! } }),
  getRole: () => ({ params: { roleId: foreign.roleId! } }),
  updateRole: () => ({
    params: { roleId: foreign.roleId! },
    body: { data: { type: 'Role', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteRole: () => ({ params: { roleId: foreign.roleId! } }),
  getProperty: () => ({ params: { propertyId: foreign.propertyId! } }),
  updateProperty: () => ({
    params: { propertyId: foreign.propertyId! },
    body: { data: { type: 'Property', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteProperty: () => ({ params: { propertyId: foreign.propertyId! } }),
  // Workspaces: B's workspace (flowWorkspaceId) and one of its participants (workspaceParticipantId).
  getWorkspace: () => ({ params: { workspaceId: foreign.flowWorkspaceId! } }),
  updateWorkspace: () => ({
    params: { workspaceId: foreign.flowWorkspaceId! },
    body: { data: { type: 'Workspace', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteWorkspace: () => ({ params: { workspaceId: foreign.flowWorkspaceId! } }),
  addWorkspaceParticipant: () => ({
    params: { workspaceId: foreign.flowWorkspaceId! },
    body: {
      data: { type: 'WorkspaceParticipant', attributes: { lockVersion: 0, kind: 'group', groupId: a.defaultGroupId } },
    },
  }),
  updateWorkspaceParticipant: () => ({
    params: { workspaceId: foreign.flowWorkspaceId!, participantId: foreign.workspaceParticipantId! },
    body: { data: { type: 'WorkspaceParticipant', attributes: { lockVersion: 0, isEditable: true } } },
  }),
  removeWorkspaceParticipant: () => ({
    params: { workspaceId: foreign.flowWorkspaceId!, participantId: foreign.workspaceParticipantId! },
    query: { lockVersion: 0 },
  }),
  // Documents: B's document in B's business flow (seeded below as documentFlowId / documentId).
  listBusinessFlowDocuments: () => ({ params: { businessFlowId: foreign.documentFlowId! } }),
  uploadDocument: () => ({ params: { businessFlowId: foreign.documentFlowId! } }),
  getDocument: () => ({ params: { documentId: foreign.documentId! } }),
  updateDocument: () => ({
    params: { documentId: foreign.documentId! },
    body: { data: { type: 'Document', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  downloadDocument: () => ({ params: { documentId: foreign.documentId! } }),
  cancelDocument: () => ({
    params: { documentId: foreign.documentId! },
    body: { data: { type: 'DocumentCancel', attributes: { lockVersion: 0, reason: '乗っ取り' } } },
  }),
  reuploadDocument: () => ({ params: { documentId: foreign.documentId! } }),
  getDocumentTemplate: () => ({ params: { documentTemplateId: foreign.documentTemplateId! } }),
  updateDocumentTemplate: () => ({
    params: { documentTemplateId: foreign.documentTemplateId! },
    body: { data: { type: 'DocumentTemplate', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteDocumentTemplate: () => ({ params: { documentTemplateId: foreign.documentTemplateId! } }),
  getBusinessFlowTemplate: () => ({ params: { businessFlowTemplateId: foreign.businessFlowTemplateId! } }),
  updateBusinessFlowTemplate: () => ({
    params: { businessFlowTemplateId: foreign.businessFlowTemplateId! },
    body: { data: { type: 'BusinessFlowTemplate', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  deleteBusinessFlowTemplate: () => ({ params: { businessFlowTemplateId: foreign.businessFlowTemplateId! } }),
  // Business flows: B's flow (documentFlowId) and its workspace (flowWorkspaceId).
  createBusinessFlow: () => ({
    params: { workspaceId: foreign.flowWorkspaceId! },
    body: { data: { type: 'BusinessFlow', attributes: { name: '乗っ取り' } } },
  }),
  getBusinessFlow: () => ({ params: { businessFlowId: foreign.documentFlowId! } }),
  updateBusinessFlow: () => ({
    params: { businessFlowId: foreign.documentFlowId! },
    body: { data: { type: 'BusinessFlow', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  completeBusinessFlow: () => ({ params: { businessFlowId: foreign.documentFlowId! }, body: lockOnly('BusinessFlow') }),
  markBusinessFlowIncomplete: () => ({
    params: { businessFlowId: foreign.documentFlowId! },
    body: lockOnly('BusinessFlow'),
  }),
  sendBusinessFlow: () => ({ params: { businessFlowId: foreign.draftFlowId! }, body: lockOnly('BusinessFlow') }),
  discardBusinessFlowDraft: () => ({
    params: { businessFlowId: foreign.draftFlowId! },
    query: { lockVersion: 0 },
  }),
  downloadCompletionCertificate: () => ({ params: { documentId: foreign.documentId! } }),
  getDocumentBoxUpload: () => ({ params: { documentId: foreign.documentId! } }),
  getDocumentOcr: () => ({ params: { documentId: foreign.documentId! } }),
  startDocumentOcr: () => ({ params: { documentId: foreign.documentId! } }),
  decideDocumentOcr: () => ({
    params: { documentId: foreign.documentId! },
    body: { data: { attributes: { decisions: [{ proposalId: foreign.documentId!, action: 'reject' }] } } },
  }),
  uploadDocumentTemplateSample: () => ({ params: { documentTemplateId: foreign.documentTemplateId! } }),
  downloadDocumentTemplateSample: () => ({ params: { documentTemplateId: foreign.documentTemplateId! } }),
  sendDocumentToBox: () => ({ params: { documentId: foreign.documentId! } }),
  signOutSession: () => ({ params: { sessionId: foreign.sessionId! } }),
  getApiKey: () => ({ params: { apiKeyId: foreign.apiKeyId! } }),
  updateApiKey: () => ({
    params: { apiKeyId: foreign.apiKeyId! },
    body: { data: { type: 'ApiKey', attributes: { lockVersion: 0, name: '乗っ取り' } } },
  }),
  revokeApiKey: () => ({ params: { apiKeyId: foreign.apiKeyId! } }),
  getBillingStatement: () => ({ params: { statementId: foreign.statementId! } }),
  downloadBillingStatementPdf: () => ({ params: { statementId: foreign.statementId! } }),
  downloadBillingStatementCsv: () => ({ params: { statementId: foreign.statementId! } }),
  rotateApiKey: () => ({ params: { apiKeyId: foreign.apiKeyId! } }),
  getWebhookEndpoint: () => ({ params: { endpointId: foreign.webhookEndpointId! } }),
  updateWebhookEndpoint: () => ({
    params: { endpointId: foreign.webhookEndpointId! },
    body: { data: { type: 'WebhookEndpoint', attributes: { lockVersion: 0, description: '乗っ取り' } } },
  }),
  deleteWebhookEndpoint: () => ({ params: { endpointId: foreign.webhookEndpointId! } }),
  rotateWebhookSecret: () => ({ params: { endpointId: foreign.webhookEndpointId! } }),
  sendWebhookTest: () => ({ params: { endpointId: foreign.webhookEndpointId! } }),
  listWebhookDeliveryAttempts: () => ({ params: { endpointId: foreign.webhookEndpointId! } }),
  replayWebhookDelivery: () => ({ params: { deliveryId: foreign.webhookDeliveryId! } }),
  withdrawPlanChangeRequest: () => ({ params: { requestId: foreign.planChangeRequestId! } }),
  cancelBusinessFlow: () => ({
    params: { businessFlowId: foreign.documentFlowId! },
    body: { data: { type: 'BusinessFlow', attributes: { lockVersion: 0, comment: '乗っ取り' } } },
  }),
  // Tasks: the approve task of B's document (foreign.taskId, seeded below).
  getDocumentTasks: () => ({ params: { documentId: foreign.documentId! } }),
  replaceDocumentTasks: () => ({
    params: { documentId: foreign.documentId! },
    body: {
      data: {
        type: 'DocumentTasks',
        attributes: {
          lockVersion: 0,
          tasks: [{ order: 1, type: 'read', assignee: { kind: 'group', groupId: foreign.groupId }, required: true }],
        },
      },
    },
  }),
  updateTask: () => ({
    params: { taskId: foreign.taskId! },
    body: { data: { type: 'Task', attributes: { lockVersion: 0, required: false } } },
  }),
  approveTask: () => ({
    params: { taskId: foreign.taskId! },
    body: { data: { type: 'TaskExecution', attributes: {} } },
  }),
  readTask: () => ({
    params: { taskId: foreign.taskId! },
    body: { data: { type: 'TaskExecution', attributes: {} } },
  }),
  remandDocument: () => ({
    params: { taskId: foreign.taskId! },
    body: { data: { type: 'TaskRemand', attributes: { reason: '乗っ取り', toOrder: 1 } } },
  }),
  cancelTask: () => ({
    params: { taskId: foreign.taskId! },
    body: { data: { type: 'TaskCancel', attributes: { reason: '乗っ取り' } } },
  }),
  signTask: () => ({
    params: { taskId: foreign.taskId! },
    body: { data: { type: 'TaskSignature', attributes: {} } },
  }),
  requestSigningCode: () => ({ params: { taskId: foreign.taskId! } }),
  getDocumentSignatures: () => ({ params: { documentId: foreign.documentId! } }),
  removeMyAgent: () => ({ params: { agentId: foreign.agentId! } }),
  getMySealImageContent: () => ({ params: { sealImageId: foreign.sealImageId! } }),
  deleteMySealImage: () => ({ params: { sealImageId: foreign.sealImageId! } }),
  // One-time users: B's workspace and flow, and the invitation of a one-time user to B's flow (seeded below).
  listOneTimeUsers: () => ({ params: { workspaceId: foreign.flowWorkspaceId! } }),
  listOneTimeInvitations: () => ({ params: { businessFlowId: foreign.documentFlowId! } }),
  inviteOneTimeUser: () => ({
    params: { businessFlowId: foreign.documentFlowId! },
    body: {
      data: { type: 'OneTimeInvitation', attributes: { channel: 'email', name: '越境', email: 'x@example.com' } },
    },
  }),
  cancelOneTimeInvitation: () => ({
    params: { invitationId: foreign.invitationId! },
    body: lockOnly('OneTimeInvitation'),
  }),
  resendOneTimeInvitation: () => ({
    params: { invitationId: foreign.invitationId! },
    body: lockOnly('OneTimeInvitation'),
  }),
  reinviteOneTimeUser: () => ({ params: { invitationId: foreign.invitationId! }, body: lockOnly('OneTimeInvitation') }),
  openOneTimeQrCode: () => ({ params: { invitationId: foreign.invitationId! } }),
  // Partner invitations by link: B's workspace and B's invitation of a partner address (seeded below).
  listWorkspaceInvitations: () => ({ params: { workspaceId: foreign.flowWorkspaceId! } }),
  invitePartnerOrganization: () => ({
    params: { workspaceId: foreign.flowWorkspaceId! },
    body: { data: { type: 'WorkspaceInvitation', attributes: { email: 'x@example.com' } } },
  }),
  cancelWorkspaceInvitation: () => ({
    params: { invitationId: foreign.workspaceInvitationId! },
    body: lockOnly('WorkspaceInvitation'),
  }),
  resendWorkspaceInvitation: () => ({
    params: { invitationId: foreign.workspaceInvitationId! },
    body: lockOnly('WorkspaceInvitation'),
  }),
};

/** Path parameters that are not ids of organization-owned rows (mail template kind and language). */
const NOT_IDS = new Set(['kind', 'locale']);

/** Required query parameters of lists and downloads. */
function queryFor(operationId: string): Record<string, string> | undefined {
  const today = new Date().toISOString().slice(0, 10);
  if (/download/i.test(operationId)) return { from: today, to: today };
  if (operationId === 'lookupCorporateNumber') return { number: '7000012050002' };
  // The lookup answers one organization by number: A's own, so the call succeeds without naming B.
  if (operationId === 'findPartnerOrganization') return { 'filter[corporateNumber]': aCorporateNumber };
  return undefined;
}

/** What B's admin sees of B's resources: compared before and after A's calls. */
async function snapshotOfB() {
  const token = b.token;
  const read = async (operationId: string, params: Record<string, string>) => {
    const response = await app.api.call(operationId as never, { token, params });
    expect(response.status, operationId).toBe(200);
    return response.body.data;
  };
  return {
    user: await read('getUser', { userId: foreign.userId! }),
    group: await read('getGroup', { groupId: foreign.groupId! }),
    members: await read('listGroupMembers', { groupId: foreign.groupId! }),
    role: await read('getRole', { roleId: foreign.roleId! }),
    property: await read('getProperty', { propertyId: foreign.propertyId! }),
    documentTemplate: await read('getDocumentTemplate', { documentTemplateId: foreign.documentTemplateId! }),
    businessFlowTemplate: await read('getBusinessFlowTemplate', {
      businessFlowTemplateId: foreign.businessFlowTemplateId!,
    }),
    businessFlow: await read('getBusinessFlow', { businessFlowId: foreign.documentFlowId! }),
    workspace: await read('getWorkspace', { workspaceId: foreign.flowWorkspaceId! }),
    apiKey: await read('getApiKey', { apiKeyId: foreign.apiKeyId! }),
    webhookEndpoint: await read('getWebhookEndpoint', { endpointId: foreign.webhookEndpointId! }),
    planChangeRequests: (await app.api.call('listPlanChangeRequests', { token })).body.data,
    logRows: Number(
      (
        await app.service.deps
          .knex('operation_logs')
          .where({ organization_id: b.organizationId })
          .count<{ n: number }[]>({ n: '*' })
      )[0]!.n,
    ),
  };
}

beforeAll(async () => {
  app = await startApp();
  a = await adminSession(app, { organizationName: 'テナントA株式会社' });
  b = await adminSession(app, { organizationName: 'テナントB株式会社' });
  // Professional plan (and the paid options) for both, so no call stops at a plan gate before reaching the data.
  await app.service.deps
    .knex('organizations')
    .whereIn('id', [a.organizationId, b.organizationId])
    .update({ plan: 'professional', options: ['aiOcr'] });
  foreign.groupId = await createGroup(app, b.token, 'B社の営業部', 'b-sales');
  const bUser = await createUser(app, b.token, [foreign.groupId]);
  foreign.userId = bUser.id;
  // The invitation job updates the new user (temporary password); let it finish before B is snapshotted.
  await temporaryPasswordOf(app, bUser.attributes.email);
  const role = await app.api.call('createRole', {
    token: b.token,
    body: { data: { type: 'Role', attributes: { name: 'B社の承認者', taskPermissions: NO_TASKS } } },
  });
  expect(role.status).toBe(201);
  foreign.roleId = role.body.data.id;
  const property = await app.api.call('createProperty', {
    token: b.token,
    body: { data: { type: 'Property', attributes: { name: 'B社の取引先', inputType: 20, scope: 10 } } },
  });
  expect(property.status).toBe(201);
  foreign.propertyId = property.body.data.id;
  // Documents: a business flow of B (seeded rows) holding one uploaded document.
  const seeded = await seedBusinessFlow(app, {
    organizationId: b.organizationId,
    groupId: b.defaultGroupId,
    createdBy: b.ownerId,
    name: 'B社の業務フロー',
  });
  foreign.documentFlowId = seeded.businessFlowId;
  foreign.flowWorkspaceId = seeded.workspaceId;
  // Workspaces: a participant of B's workspace, and a corporate number for A (the partner lookup finds A only).
  const participant = await app.service.deps
    .knex('workspace_participants')
    .where({ workspace_id: seeded.workspaceId })
    .first('id');
  foreign.workspaceParticipantId = participant.id;
  await app.service.deps
    .knex('organizations')
    .where({ id: a.organizationId })
    .update({ corporate_number: aCorporateNumber });
  foreign.documentId = (await uploadPdf(app, b.token, seeded.businessFlowId, { name: 'B社の契約書' })).id;
  // The upload's malware scan logs its verdict in B's operation log: let it land before B is snapshotted (on a busy
  // machine it came during the walk below).
  await vi.waitFor(
    async () => {
      const version = await app.service.deps
        .knex('document_versions')
        .where({ document_id: foreign.documentId })
        .first();
      expect(version?.scan_status).not.toBe('pending');
    },
    { timeout: 30_000, interval: 100 },
  );
  const [task] = await app.service.deps
    .knex('tasks')
    .insert({
      organization_id: b.organizationId,
      document_id: foreign.documentId,
      task_order: 1,
      type: 'approve',
      assignee_kind: 'group',
      group_id: b.defaultGroupId,
      status: 'active',
    })
    .returning('id');
  foreign.taskId = task.id;
  const [oneTimeUser] = await app.service.deps
    .knex('one_time_users')
    .insert({
      organization_id: b.organizationId,
      workspace_id: seeded.workspaceId,
      name: 'B社のゲスト',
      email: 'b-guest@example.com',
    })
    .returning('id');
  const [invitation] = await app.service.deps
    .knex('one_time_invitations')
    .insert({
      organization_id: b.organizationId,
      one_time_user_id: oneTimeUser.id,
      business_flow_id: seeded.businessFlowId,
      channel: 'qr',
    })
    .returning('id');
  foreign.invitationId = invitation.id;
  const [workspaceInvitation] = await app.service.deps
    .knex('workspace_invitations')
    .insert({
      organization_id: b.organizationId,
      workspace_id: seeded.workspaceId,
      email: 'b-partner@example.com',
      token_hash: 'b'.repeat(64),
      expires_at: new Date(Date.now() + 86_400_000),
      last_sent_at: new Date(),
    })
    .returning('id');
  foreign.workspaceInvitationId = workspaceInvitation.id;
  // Templates: B's document template (its approve task on B's group) used by B's business flow template.
  const documentTemplate = await app.api.call('createDocumentTemplate', {
    token: b.token,
    body: {
      data: {
        type: 'DocumentTemplate',
        attributes: {
          name: 'B社の契約書テンプレート',
          tasks: [{ order: 1, type: 'approve', assignee: { kind: 'group', groupId: foreign.groupId }, required: true }],
        },
      },
    },
  });
  expect(documentTemplate.status).toBe(201);
  foreign.documentTemplateId = documentTemplate.body.data.id;
  const flowTemplate = await app.api.call('createBusinessFlowTemplate', {
    token: b.token,
    body: {
      data: {
        type: 'BusinessFlowTemplate',
        attributes: {
          name: 'B社の取引テンプレート',
          documents: [{ documentTemplateId: foreign.documentTemplateId, templateId: 'B-DOC' }],
        },
      },
    },
  });
  expect(flowTemplate.status).toBe(201);
  foreign.businessFlowTemplateId = flowTemplate.body.data.id;
  markers.push('B社の契約書テンプレート', 'B社の取引テンプレート');
  // Signing: B's admin keeps a seal image and has B's user as an agent.
  const sealForm = new FormData();
  sealForm.set('file', new Blob([sealPng()]), 'b-seal.png');
  sealForm.set('name', 'B社の角印');
  const seal = await callMultipart(app, 'createMySealImage', { token: b.token, form: sealForm });
  expect(seal.status).toBe(201);
  foreign.sealImageId = seal.body.data.id;
  const agent = await app.api.call('addMyAgent', {
    token: b.token,
    body: { data: { type: 'Agent', attributes: { userId: foreign.userId } } },
  });
  expect(agent.status).toBe(201);
  foreign.agentId = agent.body.data.id;
  const draft = await app.api.call('createBusinessFlow', {
    token: b.token,
    params: { workspaceId: foreign.flowWorkspaceId },
    body: { data: { type: 'BusinessFlow', attributes: { name: 'B社の下書き', draft: true } } },
  });
  expect(draft.status).toBe(201);
  foreign.draftFlowId = draft.body.data.id;
  const sessions = await app.api.call('listMySessions', { token: b.token });
  expect(sessions.status).toBe(200);
  foreign.sessionId = sessions.body.data[0].id;
  const apiKey = await app.api.call('createApiKey', {
    token: b.token,
    body: { data: { type: 'ApiKey', attributes: { name: 'B社の連携キー', scopes: ['flows:read'] } } },
  });
  expect(apiKey.status).toBe(201);
  foreign.apiKeyId = apiKey.body.data.id;
  markers.push('B社の連携キー', apiKey.body.data.attributes.prefix, apiKey.body.data.attributes.serviceUserId);
  markers.push('B社の角印');
  // B's issued invoice (plugins/billing): written as the closing job writes its claim; B's month has not ended here.
  foreign.statementId = randomUUID();
  await app.service.deps.knex('billing_statements').insert({
    id: foreign.statementId,
    organization_id: b.organizationId,
    kind: 'invoice',
    month: '2026-01',
    number: 'INV-202601-B00001',
    subtotal: 10_000,
    tax: 1_000,
    total: 11_000,
    statement: JSON.stringify({ number: 'INV-202601-B00001', recipient: { name: 'テナントB株式会社' } }),
    created_at: new Date(),
  });
  markers.push('INV-202601-B00001');
  // B's webhook endpoint and one delivery (plugins/webhooks), as the plugin writes them (its address check would
  // look the host up, and the tests have no DNS).
  foreign.webhookEndpointId = randomUUID();
  foreign.webhookDeliveryId = randomUUID();
  const now = new Date();
  await app.service.deps.knex('webhook_endpoints').insert({
    id: foreign.webhookEndpointId,
    organization_id: b.organizationId,
    url: 'https://erp.b.example/keiyaku-events',
    description: 'B社の基幹システム',
    event_types: JSON.stringify(['document.completed']),
    secret_sealed: Buffer.from('not a real envelope'),
    created_at: now,
    updated_at: now,
  });
  await app.service.deps.knex('webhook_deliveries').insert({
    id: foreign.webhookDeliveryId,
    organization_id: b.organizationId,
    endpoint_id: foreign.webhookEndpointId,
    event_id: randomUUID(),
    event_type: 'document.completed',
    payload: '{}',
    status: 'succeeded',
    created_at: now,
    updated_at: now,
  });
  markers.push('https://erp.b.example/keiyaku-events', 'B社の基幹システム');
  const planRequest = await app.api.call('requestPlanChange', {
    token: b.token,
    body: { data: { type: 'PlanChangeRequest', attributes: { plan: 'standard', options: [], comment: 'B社の申請' } } },
  });
  expect(planRequest.status).toBe(201);
  foreign.planChangeRequestId = planRequest.body.data.id;
  markers.push('B社の申請');
  const user = await app.api.call('getUser', { token: b.token, params: { userId: foreign.userId } });
  markers.push(
    ...Object.values(foreign),
    b.organizationId,
    b.ownerId,
    b.loginId,
    user.body.data.attributes.loginId,
    'テナントB株式会社',
    'B社の営業部',
    'B社の承認者',
    'B社の取引先',
  );
});
afterAll(() => app?.close());

describe('cross-organization isolation', () => {
  it('every operation with an id in its path is in the walk', () => {
    const withIds = [...loadContract().operations.values()]
      // Guest operations answer 401 to a member's token (tests/api/guest-token-walk.test.ts covers the other way).
      .filter(
        (op) => op.authenticated && !op.guest && op.parameters.some((p) => p.in === 'path' && !NOT_IDS.has(p.name)),
      )
      .map((op) => op.operationId)
      .sort();
    expect(withIds.filter((id) => !(id in FOREIGN_CALLS))).toEqual([]);
    expect(Object.keys(FOREIGN_CALLS).sort()).toEqual(withIds);
  });

  it('no operation reads or changes another organization’s resource by its id: 404 NOT_FOUND, B unchanged', async () => {
    const before = await snapshotOfB();
    for (const [operationId, call] of Object.entries(FOREIGN_CALLS)) {
      const response = await app.api.call(operationId as never, { token: a.token, ...call() });
      expect([response.status, response.body?.errors?.[0]?.code], operationId).toEqual([404, 'NOT_FOUND']);
      expect(JSON.stringify(response.body), operationId).not.toContain('B社');
    }
    expect(await snapshotOfB()).toEqual(before);
  });

  it('ids of another organization in a request body are refused and attach nothing', async () => {
    const before = await snapshotOfB();
    const refused = [
      await app.api.call('createUser', {
        token: a.token,
        body: {
          data: {
            type: 'User',
            attributes: {
              loginId: 'tenant-probe-1',
              name: '越境',
              email: 'probe1@example.com',
              groupIds: [foreign.groupId],
            },
          },
        },
      }),
      await app.api.call('createUser', {
        token: a.token,
        body: {
          data: {
            type: 'User',
            attributes: {
              loginId: 'tenant-probe-2',
              name: '越境',
              email: 'probe2@example.com',
              groupIds: [a.defaultGroupId],
              roleIds: [foreign.roleId],
            },
          },
        },
      }),
      await app.api.call('addGroupMember', {
        token: a.token,
        params: { groupId: a.defaultGroupId },
        body: { data: { type: 'GroupMember', attributes: { userId: foreign.userId } } },
      }),
      // Reading positions name A's own document-scope properties only (AI-OCR).
      await app.api.call('createDocumentTemplate', {
        token: a.token,
        body: {
          data: {
            type: 'DocumentTemplate',
            attributes: {
              name: '越境の読み取り位置',
              readingPositions: [{ propertyId: foreign.propertyId, page: 1, x: 10, y: 10, width: 100, height: 20 }],
            },
          },
        },
      }),
      // An API key's service user may only join groups of A.
      await app.api.call('createApiKey', {
        token: a.token,
        body: {
          data: {
            type: 'ApiKey',
            attributes: { name: '越境キー', scopes: ['flows:read'], groupIds: [foreign.groupId] },
          },
        },
      }),
      // Single sign-on's just-in-time users may only join a group of A (plugins/sso).
      await app.api.call('updateSsoSettings', {
        token: a.token,
        body: {
          data: {
            type: 'SsoSettings',
            attributes: {
              issuer: 'https://idp.example.com',
              clientId: 'tenant-probe',
              clientSecret: 'tenant-probe-secret',
              jitEnabled: true,
              jitGroupId: foreign.groupId,
            },
          },
        },
      }),
    ];
    for (const response of refused) {
      expect(response.status).toBeGreaterThanOrEqual(404);
      expect(response.status).toBeLessThan(500);
      expect(JSON.stringify(response.body)).not.toContain('B社');
    }
    const knex = app.service.deps.knex;
    expect(await knex('users').whereIn('login_id', ['tenant-probe-1', 'tenant-probe-2']).first()).toBeUndefined();
    expect(await knex('sso_providers').where({ organization_id: a.organizationId }).first()).toBeUndefined();
    expect(await knex('api_keys').where({ organization_id: a.organizationId }).first()).toBeUndefined();
    const members = await app.api.call('listGroupMembers', { token: a.token, params: { groupId: a.defaultGroupId } });
    expect(JSON.stringify(members.body)).not.toContain(foreign.userId);
    expect(await snapshotOfB()).toEqual(before);
  });

  it('no list or download shows another organization’s data', async () => {
    const lists = [...loadContract().operations.values()].filter(
      (op) =>
        op.method.toLowerCase() === 'get' &&
        op.authenticated &&
        !op.guest &&
        !op.parameters.some((p) => p.in === 'path') &&
        // Folders of the caller's own Box account, read live from Box: nothing of another organization is held to
        // leak, and without a connected account it answers 409 BOX_NOT_CONNECTED (plugins/box/plugin.test.ts).
        op.operationId !== 'listBoxFolders',
    );
    expect(lists.length).toBeGreaterThan(10);
    for (const op of lists) {
      const response = await app.api.call(op.operationId as never, { token: a.token, query: queryFor(op.operationId) });
      expect(response.status, op.operationId).toBeLessThan(300);
      const text = typeof response.body === 'string' ? response.body : JSON.stringify(response.body);
      for (const marker of markers) expect(text, `${op.operationId} shows ${marker}`).not.toContain(marker);
    }
    // The same lists read by B's admin do show B's data, so the markers are really there to be leaked.
    for (const operationId of ['listUsers', 'listGroups', 'listRoles', 'listProperties'] as const) {
      const own = await app.api.call(operationId, { token: b.token });
      expect(
        markers.some((marker) => JSON.stringify(own.body).includes(marker)),
        operationId,
      ).toBe(true);
    }
  });
});
