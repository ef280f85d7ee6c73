import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIn } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { lastLog } from '../helpers/org-admin.ts';
import {
  documentLockVersion,
  documentRow,
  groupTask,
  insertRole,
  newDocument,
  partnerTask,
  plan,
  planBody,
  seedTaskWorld,
  startTaskApp,
  step,
  taskStatuses,
  type TaskWorld,
} from '../helpers/tasks.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTaskApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
type Tasks = Awaited<ReturnType<typeof plan>>;
/** The task of an order assigned to a group or organization (parallel tasks come back in any order). */
const at = (tasks: Tasks, order: number, assigneeId: string) =>
  tasks.find((t) => t.attributes.order === order && t.attributes.assignee.id === assigneeId)!.id;

/** A:G1 approves (1), A:G2 approves and B reads in parallel (2). */
async function standardPlan(w: TaskWorld, flowId = w.flowId) {
  const documentId = await newDocument(app, w.ownerA.token, flowId);
  const tasks = await plan(app, w.ownerA.token, documentId, [
    groupTask(1, 'approve', w.g1),
    groupTask(2, 'approve', w.g2),
    partnerTask(2, 'read', w.ownerB.organizationId),
  ]);
  return { documentId, tasks };
}

describe('task lifecycle', () => {
  it('activates order 1 when the plan is saved and lists the plan with the document state', async () => {
    const w = await seedTaskWorld(app);
    const { documentId } = await standardPlan(w);
    const list = await app.api.call('getDocumentTasks', { token: w.userB.token, params: { documentId } });
    expect(list.status).toBe(200);
    expect(list.body.meta.document).toMatchObject({ status: 'in_progress', currentOrder: 1 });
    expect(list.body.data.map((t: any) => `${t.attributes.order}:${t.attributes.type}:${t.attributes.status}`)).toEqual(
      expect.arrayContaining(['1:approve:active', '2:approve:waiting', '2:read:waiting']),
    );
    const mine = list.body.data.find((t: any) => t.attributes.type === 'read');
    expect(mine.attributes).toMatchObject({
      executableByMe: false,
      assignee: { kind: 'organization', name: '株式会社B' },
    });
  });

  it('approving the only task of order 1 activates both parallel tasks of order 2 (parallel tasks share an order)', async () => {
    const w = await seedTaskWorld(app);
    const { documentId, tasks } = await standardPlan(w);
    const approved = await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1), { comment: 'OK' });
    expect(approved.status).toBe(200);
    expect(approved.body.data.attributes).toMatchObject({ status: 'completed', completedBy: { id: w.userA1.id } });
    expect(approved.body.meta.document).toMatchObject({ status: 'in_progress', currentOrder: 2 });
    expect(await taskStatuses(app, documentId)).toEqual(['1:completed', '2:active', '2:active']);
    expect(await lastLog(app, 'task.approved', documentId)).toMatchObject({ actor_user_id: w.userA1.id });
    const events = await knex()('document_events').where({ document_id: documentId, kind: 'task_approved' });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ reason: 'OK', task_id: at(tasks, 1, w.g1) });
  });

  it('completing the last task completes the document and auto-completes the flow', async () => {
    const w = await seedTaskWorld(app);
    const { documentId, tasks } = await standardPlan(w);
    expect((await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1))).status).toBe(200);
    expect((await step(app, w.userA2.token, 'approveTask', at(tasks, 2, w.g2))).status).toBe(200);
    expect((await documentRow(app, documentId)).status).toBe('in_progress');
    const read = await step(app, w.userB.token, 'readTask', at(tasks, 2, w.ownerB.organizationId));
    expect(read.status).toBe(200);
    expect(read.body.meta.document).toMatchObject({ status: 'completed', currentOrder: null });
    expect((await documentRow(app, documentId)).completed_at).not.toBeNull();
    const flow = await knex()('business_flows').where({ id: w.flowId }).first();
    expect(flow.status).toBe('complete');
  });

  it('an optional task does not block: the order moves on and the optional task is skipped', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
      partnerTask(2, 'read', w.ownerB.organizationId, { required: false }),
    ]);
    await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    await step(app, w.userA2.token, 'approveTask', at(tasks, 2, w.g2));
    expect(await taskStatuses(app, documentId)).toEqual(expect.arrayContaining(['2:skipped', '2:completed']));
    expect((await documentRow(app, documentId)).status).toBe('completed');
  });

  it('refuses a task of another type (409 TASK_TYPE_MISMATCH), sign tasks included (signed by signTask)', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1),
      groupTask(2, 'approve', w.g1),
    ]);
    const sign = await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    expect([sign.status, sign.body.errors[0].code]).toEqual([409, 'TASK_TYPE_MISMATCH']);
    const other = await seedTaskWorld(app);
    const { tasks: approveFirst } = await standardPlan(other);
    const read = await step(app, other.userA1.token, 'readTask', at(approveFirst, 1, other.g1));
    expect([read.status, read.body.errors[0].code]).toEqual([409, 'TASK_TYPE_MISMATCH']);
  });

  it('refuses a caller who is not an assignee (403 TASK_NOT_ASSIGNED_TO_YOU)', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await standardPlan(w);
    const result = await step(app, w.userA2.token, 'approveTask', at(tasks, 1, w.g1));
    expect([result.status, result.body.errors[0].code]).toEqual([403, 'TASK_NOT_ASSIGNED_TO_YOU']);
  });

  it('refuses a waiting task of a later order (409 TASK_NOT_EXECUTABLE)', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await standardPlan(w);
    const result = await step(app, w.userA2.token, 'approveTask', at(tasks, 2, w.g2));
    expect([result.status, result.body.errors[0].code]).toEqual([409, 'TASK_NOT_EXECUTABLE']);
  });

  it('a task with a role is run only by group members holding that role', async () => {
    const w = await seedTaskWorld(app);
    const approver = await insertRole(app, w.ownerA.organizationId, ['approve']);
    const holder = await userIn(app, w.ownerA.organizationId, [w.g1], [approver]);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1, { roleId: approver })]);
    const without = await step(app, w.userA1.token, 'approveTask', tasks[0]!.id);
    expect([without.status, without.body.errors[0].code]).toEqual([403, 'TASK_NOT_ASSIGNED_TO_YOU']);
    expect((await step(app, holder.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
  });

  it('refuses execution while the document is being scanned (409 DOCUMENT_BEING_SCANNED), or found malicious', async () => {
    const w = await seedTaskWorld(app);
    const pending = await newDocument(app, w.ownerA.token, w.flowId, null);
    const [task] = await plan(app, w.ownerA.token, pending, [groupTask(1, 'approve', w.g1)]);
    const scanning = await step(app, w.userA1.token, 'approveTask', task!.id);
    expect([scanning.status, scanning.body.errors[0].code]).toEqual([409, 'DOCUMENT_BEING_SCANNED']);
    const malicious = await newDocument(app, w.ownerA.token, w.flowId, 'malicious');
    const [bad] = await plan(app, w.ownerA.token, malicious, [groupTask(1, 'approve', w.g1)]);
    const refused = await step(app, w.userA1.token, 'approveTask', bad!.id);
    expect([refused.status, refused.body.errors[0].code]).toEqual([409, 'DOCUMENT_MALICIOUS']);
    expect(await taskStatuses(app, pending)).toEqual(['1:active']);
  });

  it('refuses tasks of a cancelled flow (409 BUSINESS_FLOW_CANCELLED)', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await standardPlan(w);
    await knex()('business_flows').where({ id: w.flowId }).update({ status: 'cancelled' });
    const result = await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    expect([result.status, result.body.errors[0].code]).toEqual([409, 'BUSINESS_FLOW_CANCELLED']);
  });

  it('two parallel approvals of the same order both count and advance the document once', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
      partnerTask(3, 'read', w.ownerB.organizationId),
    ]);
    await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    const results = await Promise.all([
      step(app, w.userA1.token, 'approveTask', at(tasks, 2, w.g1)),
      step(app, w.userA2.token, 'approveTask', at(tasks, 2, w.g2)),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    expect(await taskStatuses(app, documentId)).toEqual(['1:completed', '2:completed', '2:completed', '3:active']);
    const activations = await knex()('operation_logs').where({ action: 'task.approved', target_id: documentId });
    expect(activations).toHaveLength(3);
    expect((await documentRow(app, documentId)).current_order).toBe(3);
  });
});

describe('remand and cancel', () => {
  async function threeOrders(w: TaskWorld) {
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
      partnerTask(3, 'approve', w.ownerB.organizationId),
    ]);
    await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    await step(app, w.userA2.token, 'approveTask', at(tasks, 2, w.g2));
    return { documentId, tasks };
  }

  it('remands to a chosen earlier order (not only the start): that order runs again, then the document is in progress', async () => {
    const w = await seedTaskWorld(app);
    const { documentId, tasks } = await threeOrders(w);
    const remand = await step(app, w.userB.token, 'remandDocument', at(tasks, 3, w.ownerB.organizationId), {
      reason: '金額を修正してください',
      toOrder: 2,
    });
    expect(remand.status).toBe(200);
    expect(remand.body.meta.document).toMatchObject({ status: 'remanded', currentOrder: 2 });
    expect(await taskStatuses(app, documentId)).toEqual(['1:completed', '2:active', '3:waiting']);
    const event = await knex()('document_events').where({ document_id: documentId, kind: 'remanded' }).first();
    expect(event).toMatchObject({ reason: '金額を修正してください', to_order: 2, actor_user_id: w.userB.id });
    expect(await lastLog(app, 'document.remanded', documentId)).toBeTruthy();
    const again = await step(app, w.userA2.token, 'approveTask', at(tasks, 2, w.g2));
    expect(again.body.meta.document).toMatchObject({ status: 'in_progress', currentOrder: 3 });
  });

  it('remand to order 1 goes back to the start and resets every completed task', async () => {
    const w = await seedTaskWorld(app);
    const { documentId, tasks } = await threeOrders(w);
    const remand = await step(app, w.userB.token, 'remandDocument', at(tasks, 3, w.ownerB.organizationId), {
      reason: 'やり直し',
      toOrder: 1,
    });
    expect(remand.status).toBe(200);
    expect(await taskStatuses(app, documentId)).toEqual(['1:active', '2:waiting', '3:waiting']);
    const reset = await knex()('tasks').where({ document_id: documentId }).whereNotNull('completed_by');
    expect(reset).toHaveLength(0);
  });

  it('rejects a remand without a reason (422 TASK_REASON_REQUIRED)', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await threeOrders(w);
    const result = await step(app, w.userB.token, 'remandDocument', at(tasks, 3, w.ownerB.organizationId), {
      reason: '  ',
      toOrder: 1,
    });
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({
      code: 'TASK_REASON_REQUIRED',
      source: { pointer: '/data/attributes/reason' },
    });
  });

  it('rejects a remand to the same or a later order (422 REMAND_TARGET_INVALID)', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await threeOrders(w);
    const result = await step(app, w.userB.token, 'remandDocument', at(tasks, 3, w.ownerB.organizationId), {
      reason: '理由',
      toOrder: 3,
    });
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({
      code: 'REMAND_TARGET_INVALID',
      source: { pointer: '/data/attributes/toOrder' },
    });
  });

  it('rejects a cancel without a reason (422 TASK_REASON_REQUIRED)', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await standardPlan(w);
    const result = await step(app, w.userA1.token, 'cancelTask', at(tasks, 1, w.g1), {});
    expect([result.status, result.body.errors[0].code]).toEqual([422, 'TASK_REASON_REQUIRED']);
  });

  it('cancel from a task cancels the document with its reason, keeps the data, and lets the flow auto-complete', async () => {
    const w = await seedTaskWorld(app);
    const done = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '完了する書類');
    const [only] = await plan(app, w.ownerA.token, done, [groupTask(1, 'approve', w.g1)]);
    const { documentId, tasks } = await standardPlan(w);
    await step(app, w.userA1.token, 'approveTask', only!.id);
    expect((await knex()('business_flows').where({ id: w.flowId }).first()).status).toBe('in_progress');
    const cancelled = await step(app, w.userA1.token, 'cancelTask', at(tasks, 1, w.g1), { reason: '条件変更のため' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.meta.document).toMatchObject({ status: 'cancelled', currentOrder: null });
    expect(await documentRow(app, documentId)).toMatchObject({ status: 'cancelled', cancel_comment: '条件変更のため' });
    expect(await taskStatuses(app, documentId)).toEqual(['1:cancelled', '2:cancelled', '2:cancelled']);
    expect((await knex()('business_flows').where({ id: w.flowId }).first()).status).toBe('complete');
    const retry = await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    expect([retry.status, retry.body.errors[0].code]).toEqual([409, 'TASK_NOT_EXECUTABLE']);
  });

  it('a malicious document can still be remanded (the verdict forces remand or cancel)', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    await knex()('document_versions').where({ document_id: documentId }).update({ scan_status: 'malicious' });
    const remand = await step(app, w.userA2.token, 'remandDocument', at(tasks, 2, w.g2), {
      reason: 'ウイルスが検出されたため再アップロードしてください',
      toOrder: 1,
    });
    expect(remand.status).toBe(200);
    expect((await documentRow(app, documentId)).status).toBe('remanded');
  });
});

describe('my tasks', () => {
  it('lists my executable tasks across two workspaces, and a partner’s tasks as partner', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await standardPlan(w);
    const workspaceId = await seedWorkspace(app, w.ownerA.organizationId, [{ groupId: w.g1, isEditable: true }], {
      name: 'Second workspace',
    });
    const secondFlow = await insertFlow(app, w.ownerA.organizationId, workspaceId, { createdBy: w.ownerA.ownerId });
    const pending = await newDocument(app, w.ownerA.token, secondFlow, null, '見積書');
    await plan(app, w.ownerA.token, pending, [groupTask(1, 'approve', w.g1)]);

    const mine = await app.api.call('listMyTasks', { token: w.userA1.token });
    expect(mine.status).toBe(200);
    expect(mine.body.meta.total).toBe(2);
    const byWorkspace = Object.fromEntries(
      mine.body.data.map((t: any) => [t.attributes.workspace.name, t.attributes.blockedByScan]),
    );
    expect(byWorkspace).toEqual({ 'Deals with B': false, 'Second workspace': true });
    const searched = await app.api.call('listMyTasks', { token: w.userA1.token, query: { 'filter[q]': '見積' } });
    expect(searched.body.data.map((t: any) => t.attributes.document.name)).toEqual(['見積書']);

    expect((await app.api.call('listMyTasks', { token: w.userB.token })).body.meta.total).toBe(0);
    await step(app, w.userA1.token, 'approveTask', at(tasks, 1, w.g1));
    const partner = await app.api.call('listMyTasks', { token: w.userB.token, query: { 'filter[type]': 'read' } });
    expect(partner.body.data).toHaveLength(1);
    expect(partner.body.data[0]).toMatchObject({
      id: at(tasks, 2, w.ownerB.organizationId),
      attributes: { type: 'read', workspace: { ownerOrganizationName: '株式会社A' }, businessFlow: { id: w.flowId } },
    });
    const approveOnly = await app.api.call('listMyTasks', {
      token: w.userB.token,
      query: { 'filter[type]': 'approve' },
    });
    expect(approveOnly.body.meta.total).toBe(0);
  });
});

describe('optimistic locking', () => {
  it('of two concurrent updateTask calls with the same lockVersion exactly one wins, the other gets 409', async () => {
    const w = await seedTaskWorld(app);
    const { tasks } = await standardPlan(w);
    const taskId = at(tasks, 2, w.g2);
    const lockVersion = tasks.find((t) => t.id === taskId)!.attributes.lockVersion;
    const update = (required: boolean) =>
      app.api.call('updateTask', {
        token: w.ownerA.token,
        params: { taskId },
        body: { data: { type: 'Task', attributes: { lockVersion, required } } },
      });
    const results = await Promise.all([update(false), update(true)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
  });

  it('of two concurrent replaceDocumentTasks calls with the same lockVersion exactly one wins, the other gets 409', async () => {
    const w = await seedTaskWorld(app);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const lockVersion = await documentLockVersion(app, documentId);
    const put = (type: 'approve' | 'sign') =>
      app.api.call('replaceDocumentTasks', {
        token: w.ownerA.token,
        params: { documentId },
        body: planBody(lockVersion, [groupTask(1, type, w.g1)]),
      });
    const results = await Promise.all([put('approve'), put('sign')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    expect(await knex()('tasks').where({ document_id: documentId })).toHaveLength(1);
  });
});
