/*
 * Test helpers for tasks: a world of two organizations (A owns a workspace with two of its groups and B as a
 * partner) with a user in each group, documents uploaded through the API and marked scanned, and short calls for the task operations. The malware-scan plugin is off so that a test decides
 * every scan verdict itself.
 */
import type { Plan } from '../../core/http/context.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { signedInOwner, userIn } from './accounts.ts';
import { startApp, type TestApp } from './app.ts';
import { insertFlow } from './business-flows.ts';
import { markScanned, uploadPdf } from './documents.ts';
import { createGroup } from './org-admin.ts';
import { seedWorkspace } from './workspaces.ts';

export function startTaskApp() {
  return startApp({ plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)) });
}

/** A role of the organization that may execute exactly the given task types. */
export async function insertRole(app: TestApp, organizationId: string, executes: ('sign' | 'approve' | 'read')[]) {
  const permissions = Object.fromEntries(
    (['sign', 'approve', 'read'] as const).map((t) => [t, { execute: executes.includes(t), view: true }]),
  );
  const [role] = await app.service.deps
    .knex('roles')
    .insert({ organization_id: organizationId, name: `role-${Math.random()}`, task_permissions: permissions })
    .returning('id');
  return role.id as string;
}

/**
 * Organization A (owner, admin token) with groups G1 and G2 taking part in a workspace (G1 editable), one user
 * in each; organization B as a partner (public, not editable) with its owner and one more user; one flow.
 */
export async function seedTaskWorld(app: TestApp, options: { mailNotification?: boolean; plan?: Plan } = {}) {
  const { knex } = app.service.deps;
  // Professional by default: the world exercises every signature type; plan gating has tests of its own.
  const ownerA = await signedInOwner(app, { organizationName: '株式会社A', plan: options.plan ?? 'professional' });
  const g1 = await createGroup(app, ownerA.token, `承認G1-${Math.random()}`);
  const g2 = await createGroup(app, ownerA.token, `閲覧G2-${Math.random()}`);
  await knex('group_members').insert([
    { group_id: g1, user_id: ownerA.ownerId },
    { group_id: g2, user_id: ownerA.ownerId },
  ]);
  const ownerB = await signedInOwner(app, { organizationName: '株式会社B' });
  const workspaceId = await seedWorkspace(
    app,
    ownerA.organizationId,
    [
      { groupId: g1, isEditable: true },
      { groupId: g2, isEditable: false },
      { partnerOrganizationId: ownerB.organizationId, isEditable: false },
    ],
    { name: 'Deals with B', mailNotification: options.mailNotification },
  );
  const flowId = await insertFlow(app, ownerA.organizationId, workspaceId, {
    name: '売買契約 2026',
    createdBy: ownerA.ownerId,
  });
  return {
    ownerA,
    ownerB,
    g1,
    g2,
    workspaceId,
    flowId,
    userA1: await userIn(app, ownerA.organizationId, [g1]),
    userA2: await userIn(app, ownerA.organizationId, [g2]),
    userB: await userIn(app, ownerB.organizationId, []),
  };
}

export type TaskWorld = Awaited<ReturnType<typeof seedTaskWorld>>;

/** Uploads a PDF through the API and records the scan verdict (clean unless told; null leaves it pending). */
export async function newDocument(
  app: TestApp,
  token: string,
  flowId: string,
  scan: 'clean' | 'malicious' | 'failed' | null = 'clean',
  name = '契約書',
) {
  const document = await uploadPdf(app, token, flowId, { name });
  if (scan) await markScanned(app, document.id, scan);
  return document.id;
}

export interface PlanTask {
  order: number;
  type: 'sign' | 'approve' | 'read';
  assignee: { kind: 'group'; groupId: string } | { kind: 'organization'; organizationId: string };
  required: boolean;
  roleId?: string | null;
  templateId?: string | null;
  signatureType?: string | null;
  twoFactor?: 'none' | 'sms' | 'email';
}

export const groupTask = (order: number, type: PlanTask['type'], groupId: string, extra: Partial<PlanTask> = {}) =>
  ({ order, type, assignee: { kind: 'group', groupId }, required: true, ...extra }) as PlanTask;

export const partnerTask = (
  order: number,
  type: PlanTask['type'],
  organizationId: string,
  extra: Partial<PlanTask> = {},
) => ({ order, type, assignee: { kind: 'organization', organizationId }, required: true, ...extra }) as PlanTask;

export const planBody = (lockVersion: number, tasks: PlanTask[]) => ({
  data: { type: 'DocumentTasks', attributes: { lockVersion, tasks } },
});

/** PUT the plan with the document's current lockVersion; returns the raw result. */
export async function putPlan(app: TestApp, token: string, documentId: string, tasks: PlanTask[]) {
  const lockVersion = await documentLockVersion(app, documentId);
  return app.api.call('replaceDocumentTasks', { token, params: { documentId }, body: planBody(lockVersion, tasks) });
}

/** PUT the plan (200 expected) and return the created tasks in plan order. */
export async function plan(app: TestApp, token: string, documentId: string, tasks: PlanTask[]) {
  const result = await putPlan(app, token, documentId, tasks);
  if (result.status !== 200) throw new Error(`replaceDocumentTasks failed: ${JSON.stringify(result.body)}`);
  return result.body.data as { id: string; attributes: Record<string, any> }[];
}

export async function documentLockVersion(app: TestApp, documentId: string): Promise<number> {
  const row = await app.service.deps.knex('documents').where({ id: documentId }).first('lock_version');
  return row.lock_version as number;
}

type StepOperation = 'approveTask' | 'readTask' | 'remandDocument' | 'cancelTask';
const STEP_TYPES: Record<StepOperation, string> = {
  approveTask: 'TaskExecution',
  readTask: 'TaskExecution',
  remandDocument: 'TaskRemand',
  cancelTask: 'TaskCancel',
};

/** Runs one task step (approve, read, remand, cancel) and returns the raw result. */
export function step(
  app: TestApp,
  token: string,
  operationId: StepOperation,
  taskId: string,
  attributes: Record<string, unknown> = {},
) {
  return app.api.call(operationId, {
    token,
    params: { taskId },
    body: { data: { type: STEP_TYPES[operationId], attributes } },
  });
}

export async function documentRow(app: TestApp, documentId: string) {
  return app.service.deps.knex('documents').where({ id: documentId }).first();
}

export async function taskStatuses(app: TestApp, documentId: string) {
  const rows = await app.service.deps
    .knex('tasks')
    .where({ document_id: documentId })
    .orderBy(['task_order', 'created_at', 'id'])
    .select('task_order', 'status');
  return rows.map((r) => `${r.task_order}:${r.status}`);
}
