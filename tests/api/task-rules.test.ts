import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { signedInOwner } from '../helpers/accounts.ts';
import {
  groupTask,
  insertRole,
  newDocument,
  partnerTask,
  plan,
  planBody,
  putPlan,
  seedTaskWorld,
  startTaskApp,
  step,
  type TaskWorld,
} from '../helpers/tasks.ts';

let app: TestApp;
let w: TaskWorld;
beforeAll(async () => {
  app = await startTaskApp();
  w = await seedTaskWorld(app);
});
afterAll(() => app.close());

const errorsOf = (result: { body: any }) =>
  (result.body.errors as { code: string; source?: { pointer: string } }[]).map((e) => [e.code, e.source?.pointer]);
const document = () => newDocument(app, w.ownerA.token, w.flowId);

describe('task plan rules (replaceDocumentTasks)', () => {
  it('rejects a second task with order 1 (422 TASK_ORDER_ONE_NOT_UNIQUE)', async () => {
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      partnerTask(1, 'approve', w.ownerB.organizationId),
    ]);
    expect(result.status).toBe(422);
    expect(errorsOf(result)).toEqual([['TASK_ORDER_ONE_NOT_UNIQUE', '/data/attributes/tasks/1/order']]);
  });

  it('rejects orders with a gap (422 TASK_ORDER_GAP)', async () => {
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      groupTask(3, 'approve', w.g2),
    ]);
    expect(errorsOf(result)).toEqual([['TASK_ORDER_GAP', '/data/attributes/tasks/1/order']]);
  });

  it('rejects a read task that is neither last nor parallel (422 TASK_READ_NOT_LAST)', async () => {
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      partnerTask(2, 'read', w.ownerB.organizationId),
      groupTask(3, 'approve', w.g2),
    ]);
    expect(result.status).toBe(422);
    expect(errorsOf(result)).toEqual([['TASK_READ_NOT_LAST', '/data/attributes/tasks/1/type']]);
  });

  it('accepts a read task parallel to another task, or in the last order', async () => {
    const tasks = await plan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
      partnerTask(2, 'read', w.ownerB.organizationId),
      groupTask(3, 'read', w.g2),
    ]);
    expect(tasks).toHaveLength(4);
  });

  it('requires a required task for a group of the caller’s organization (422 TASK_OWN_GROUP_REQUIRED)', async () => {
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1, { required: false }),
      partnerTask(2, 'approve', w.ownerB.organizationId),
    ]);
    expect(errorsOf(result)).toEqual([['TASK_OWN_GROUP_REQUIRED', '/data/attributes/tasks']]);
  });

  it('requires a task for the workspace owner organization (422 TASK_OWNER_ORGANIZATION_REQUIRED)', async () => {
    const result = await putPlan(app, w.ownerA.token, await document(), [
      partnerTask(1, 'approve', w.ownerB.organizationId),
    ]);
    expect(result.status).toBe(422);
    expect(errorsOf(result)).toEqual([
      ['TASK_OWN_GROUP_REQUIRED', '/data/attributes/tasks'],
      ['TASK_OWNER_ORGANIZATION_REQUIRED', '/data/attributes/tasks'],
    ]);
  });

  it('rejects a role that cannot perform the task (422 ROLE_CANNOT_PERFORM_TASK)', async () => {
    const readerOnly = await insertRole(app, w.ownerA.organizationId, ['read']);
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1, { roleId: readerOnly }),
    ]);
    expect(result.status).toBe(422);
    expect(errorsOf(result)).toEqual([['ROLE_CANNOT_PERFORM_TASK', '/data/attributes/tasks/0/roleId']]);
  });

  it('rejects a task template ID used twice in a document (409 TASK_TEMPLATE_ID_DUPLICATE)', async () => {
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1, { templateId: 'T-1' }),
      groupTask(2, 'approve', w.g2, { templateId: 'T-1' }),
    ]);
    expect(result.status).toBe(409);
    expect(errorsOf(result)).toEqual([['TASK_TEMPLATE_ID_DUPLICATE', '/data/attributes/tasks/1/templateId']]);
  });

  it('rejects more than 30 tasks (422 TASK_LIMIT)', async () => {
    const tasks = Array.from({ length: 31 }, (_, i) => groupTask(i + 1, 'approve', w.g1));
    const result = await putPlan(app, w.ownerA.token, await document(), tasks);
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({ code: 'TASK_LIMIT', meta: expect.anything() });
  });

  it('rejects assignees that do not take part in the workspace (422 TASK_ASSIGNEE_NOT_PARTICIPANT)', async () => {
    const [group] = await app.service.deps
      .knex('groups')
      .insert({ organization_id: w.ownerA.organizationId, name: `不参加-${Math.random()}` })
      .returning('id');
    const outsiderGroup = group.id as string;
    const outsiderOrg = await signedInOwner(app, { organizationName: '株式会社C' });
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', outsiderGroup),
      partnerTask(3, 'read', outsiderOrg.organizationId),
    ]);
    expect(result.status).toBe(422);
    expect(errorsOf(result)).toEqual([
      ['TASK_ASSIGNEE_NOT_PARTICIPANT', '/data/attributes/tasks/1/assignee/groupId'],
      ['TASK_ASSIGNEE_NOT_PARTICIPANT', '/data/attributes/tasks/2/assignee/organizationId'],
    ]);
  });

  it('rejects another organization’s group and role ids (422 REFERENCE_NOT_FOUND) and a role on a partner task', async () => {
    const foreignRole = await insertRole(app, w.ownerB.organizationId, ['approve']);
    const foreignGroup = (
      await app.service.deps.knex('groups').where({ organization_id: w.ownerB.organizationId }).first('id')
    ).id as string;
    const result = await putPlan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1, { roleId: foreignRole }),
      groupTask(2, 'approve', foreignGroup),
      partnerTask(3, 'read', w.ownerB.organizationId, { roleId: foreignRole }),
    ]);
    expect(result.status).toBe(422);
    expect(errorsOf(result)).toEqual([
      ['REFERENCE_NOT_FOUND', '/data/attributes/tasks/0/roleId'],
      ['REFERENCE_NOT_FOUND', '/data/attributes/tasks/1/assignee/groupId'],
      ['VALIDATION_FAILED', '/data/attributes/tasks/2/roleId'],
    ]);
  });

  it('lets only the owner organization’s editors change the plan (403 WORKSPACE_EDIT_NOT_ALLOWED)', async () => {
    const documentId = await document();
    const tasks = [groupTask(1, 'approve', w.g1)];
    const partner = await putPlan(app, w.ownerB.token, documentId, tasks);
    expect([partner.status, partner.body.errors[0].code]).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
    const viewer = await putPlan(app, w.userA2.token, documentId, tasks);
    expect([viewer.status, viewer.body.errors[0].code]).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
    expect((await putPlan(app, w.userA1.token, documentId, tasks)).status).toBe(200);
  });

  it('locks the plan once a task is completed (409 TASKS_LOCKED)', async () => {
    const documentId = await document();
    const [first] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    expect((await step(app, w.userA1.token, 'approveTask', first!.id)).status).toBe(200);
    const result = await putPlan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1)]);
    expect([result.status, result.body.errors[0].code]).toEqual([409, 'TASKS_LOCKED']);
  });

  it('rejects a stale document lockVersion (409 UPDATED_BY_ANOTHER_USER)', async () => {
    const documentId = await document();
    await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1)]);
    const stale = await app.api.call('replaceDocumentTasks', {
      token: w.ownerA.token,
      params: { documentId },
      body: planBody(0, [groupTask(1, 'read', w.g1)]),
    });
    expect([stale.status, stale.body.errors[0].code]).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);
  });
});

describe('task update rules (updateTask)', () => {
  const update = (taskId: string, attributes: Record<string, unknown>) =>
    app.api.call('updateTask', {
      token: w.ownerA.token,
      params: { taskId },
      body: { data: { type: 'Task', attributes } },
    });

  it('re-checks the plan: the only required own-group task cannot become optional (422 TASK_OWN_GROUP_REQUIRED)', async () => {
    const [own, partner] = await plan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      partnerTask(2, 'approve', w.ownerB.organizationId),
    ]);
    const result = await update(own!.id, { lockVersion: own!.attributes.lockVersion, required: false });
    expect(errorsOf(result)).toEqual([['TASK_OWN_GROUP_REQUIRED', '/data/attributes']]);
    const optional = await update(partner!.id, { lockVersion: partner!.attributes.lockVersion, required: false });
    expect(optional.status).toBe(200);
    expect(optional.body.data.attributes).toMatchObject({ required: false, lockVersion: 1 });
  });

  it('re-checks the role against the task type (422 ROLE_CANNOT_PERFORM_TASK at roleId)', async () => {
    const readerOnly = await insertRole(app, w.ownerA.organizationId, ['read']);
    const [, second] = await plan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    const result = await update(second!.id, { lockVersion: second!.attributes.lockVersion, roleId: readerOnly });
    expect(errorsOf(result)).toEqual([['ROLE_CANNOT_PERFORM_TASK', '/data/attributes/roleId']]);
  });

  it('refuses to change a completed task (409 TASKS_LOCKED)', async () => {
    const [first] = await plan(app, w.ownerA.token, await document(), [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    await step(app, w.userA1.token, 'approveTask', first!.id);
    const result = await update(first!.id, { lockVersion: first!.attributes.lockVersion + 1, required: false });
    expect([result.status, result.body.errors[0].code]).toEqual([409, 'TASKS_LOCKED']);
  });
});
