/*
 * Nobody weakens the rules of a task under way: changing a live task's role or assignee (PATCH /tasks/{id} or a
 * replaced plan) needs the workspace owner's right (an administrator of the owner organization), and each such
 * change is in the operation log with before and after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { signedInOwner } from '../helpers/accounts.ts';
import { lastLog } from '../helpers/org-admin.ts';
import {
  groupTask,
  insertRole,
  newDocument,
  plan,
  putPlan,
  seedTaskWorld,
  startTaskApp,
  step,
  type TaskWorld,
} from '../helpers/tasks.ts';

let app: TestApp;
let w: TaskWorld;
/** A role that may approve; the editor userA1 (member of the editable group G1) does not hold it. */
let approver: string;

beforeAll(async () => {
  app = await startTaskApp();
  w = await seedTaskWorld(app);
  approver = await insertRole(app, w.ownerA.organizationId, ['approve']);
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const taskRow = (id: string) => knex()('tasks').where({ id }).first();

/** A document whose only task (order 1, active) is G1's approval reserved to the approver role. */
async function roleTask() {
  const documentId = await newDocument(app, w.ownerA.token, w.flowId);
  const [task] = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1, { roleId: approver })]);
  return { documentId, task: task! };
}

function patchTask(token: string, task: { id: string; attributes: Record<string, any> }, attributes: object) {
  return app.api.call('updateTask', {
    token,
    params: { taskId: task.id },
    body: { data: { type: 'Task', attributes: { lockVersion: task.attributes.lockVersion, ...attributes } } },
  });
}

const codeOf = (result: { status: number; body: any }) => [result.status, result.body.errors?.[0]?.code];

describe('a member without the role of their own task', () => {
  it('cannot remove the role (PATCH roleId null is 403 TASK_RULE_CHANGE_FORBIDDEN) and so still cannot approve', async () => {
    const { documentId, task } = await roleTask();
    expect(codeOf(await step(app, w.userA1.token, 'approveTask', task.id))).toEqual([403, 'TASK_NOT_ASSIGNED_TO_YOU']);

    const removed = await patchTask(w.userA1.token, task, { roleId: null });
    expect(codeOf(removed)).toEqual([403, 'TASK_RULE_CHANGE_FORBIDDEN']);
    expect(removed.body.errors[0].meta.messages.en).toContain("administrator of the workspace's owner organization");
    expect(await taskRow(task.id)).toMatchObject({ role_id: approver, lock_version: task.attributes.lockVersion });

    const approve = await step(app, w.userA1.token, 'approveTask', task.id);
    expect(codeOf(approve)).toEqual([403, 'TASK_NOT_ASSIGNED_TO_YOU']);
    expect((await taskRow(task.id)).status).toBe('active');
    expect(await lastLog(app, 'task.updated', documentId)).toBeUndefined();
  });

  it('cannot swap it for a role they hold either', async () => {
    const { task } = await roleTask();
    const mine = await insertRole(app, w.ownerA.organizationId, ['approve']);
    await knex()('user_roles').insert({ role_id: mine, user_id: w.userA1.id });
    try {
      expect(codeOf(await patchTask(w.userA1.token, task, { roleId: mine }))).toEqual([
        403,
        'TASK_RULE_CHANGE_FORBIDDEN',
      ]);
      expect((await taskRow(task.id)).role_id).toBe(approver);
    } finally {
      await knex()('user_roles').where({ role_id: mine }).delete();
    }
  });

  it('cannot drop the role or hand the task to another group by replacing the plan', async () => {
    const { documentId, task } = await roleTask();
    const withoutRole = await putPlan(app, w.userA1.token, documentId, [groupTask(1, 'approve', w.g1)]);
    expect(codeOf(withoutRole)).toEqual([403, 'TASK_RULE_CHANGE_FORBIDDEN']);
    const otherGroup = await putPlan(app, w.userA1.token, documentId, [
      groupTask(1, 'approve', w.g2, { roleId: approver }),
    ]);
    expect(codeOf(otherGroup)).toEqual([403, 'TASK_RULE_CHANGE_FORBIDDEN']);
    const dropped = await putPlan(app, w.userA1.token, documentId, [groupTask(1, 'read', w.g1)]);
    expect(codeOf(dropped)).toEqual([403, 'TASK_RULE_CHANGE_FORBIDDEN']);
    // Nothing changed: the same task row, still reserved to the role.
    const rows = await knex()('tasks').where({ document_id: documentId });
    expect(rows.map((r) => [r.id, r.role_id, r.group_id])).toEqual([[task.id, approver, w.g1]]);
    expect(codeOf(await step(app, w.userA1.token, 'approveTask', task.id))).toEqual([403, 'TASK_NOT_ASSIGNED_TO_YOU']);
  });

  it('keeps the edits that change nobody’s rules: the required flag, the same role, added tasks', async () => {
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1, { roleId: approver }),
      groupTask(2, 'approve', w.g2),
    ]);
    const optional = await patchTask(w.userA1.token, tasks[1]!, { required: false, roleId: null });
    expect(optional.status).toBe(200);
    expect(optional.body.data.attributes).toMatchObject({ required: false, role: null });
    const extended = await putPlan(app, w.userA1.token, documentId, [
      groupTask(1, 'approve', w.g1, { roleId: approver }),
      groupTask(2, 'approve', w.g2, { required: false }),
      groupTask(3, 'approve', w.g2),
    ]);
    expect(extended.status).toBe(200);
    expect(extended.body.data).toHaveLength(3);
  });
});

describe('the workspace owner', () => {
  it('changes a live task’s role, logged with before and after; the member can then run it', async () => {
    const { documentId, task } = await roleTask();
    const changed = await patchTask(w.ownerA.token, task, { roleId: null });
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ role: null });
    const log = await lastLog(app, 'task.updated', documentId);
    expect(log).toMatchObject({
      organization_id: w.ownerA.organizationId,
      actor_user_id: w.ownerA.ownerId,
      target_type: 'document',
      details: {
        taskId: task.id,
        ruleChanged: true,
        before: { required: true, roleId: approver },
        after: { required: true, roleId: null },
      },
    });
    expect((await step(app, w.userA1.token, 'approveTask', task.id)).status).toBe(200);
  });

  it('reassigns a live task by replacing the plan, with every task’s rules before and after in the log', async () => {
    const { documentId } = await roleTask();
    const result = await putPlan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g2)]);
    expect(result.status).toBe(200);
    const log = await lastLog(app, 'document.tasks_replaced', documentId);
    expect(log.actor_user_id).toBe(w.ownerA.ownerId);
    expect(log.details).toMatchObject({
      tasks: 1,
      before: [{ order: 1, type: 'approve', assignee: { kind: 'group', id: w.g1 }, roleId: approver }],
      after: [{ order: 1, type: 'approve', assignee: { kind: 'group', id: w.g2 }, roleId: null }],
    });
  });

  it('is only the owner organization’s administrator: a partner’s or another organization’s admin cannot', async () => {
    const { task } = await roleTask();
    expect(codeOf(await patchTask(w.ownerB.token, task, { roleId: null }))).toEqual([
      403,
      'WORKSPACE_EDIT_NOT_ALLOWED',
    ]);
    const stranger = await signedInOwner(app, { organizationName: '株式会社C' });
    expect(codeOf(await patchTask(stranger.token, task, { roleId: null }))).toEqual([404, 'NOT_FOUND']);
    expect((await taskRow(task.id)).role_id).toBe(approver);
  });
});
