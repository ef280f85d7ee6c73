import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../core/contract/document.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { signedInGuest } from '../helpers/one-time.ts';
import { seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

// A guest's token opens the guest operations of their own flow and nothing else: every other operation of the
// contract that asks for a token (members' operations, each with the guest's own flow, document, task and
// invitation ids where its path takes one) answers 401, never a success, and changes nothing.

let app: TestApp;
let w: TaskWorld;
let guest: Awaited<ReturnType<typeof signedInGuest>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startApp();
  w = await seedTaskWorld(app);
  guest = await signedInGuest(app, w.ownerA.token, w.flowId, { acceptTerms: true });
  const { knex } = app.service.deps;
  const [document] = await knex('documents')
    .insert({
      organization_id: w.ownerA.organizationId,
      business_flow_id: w.flowId,
      name: 'ゲストの契約書',
      status: 'in_progress',
      current_order: 1,
    })
    .returning('id');
  const [task] = await knex('tasks')
    .insert({
      organization_id: w.ownerA.organizationId,
      document_id: document.id,
      task_order: 1,
      type: 'approve',
      assignee_kind: 'one_time_user',
      one_time_user_id: guest.invitation.attributes.oneTimeUserId,
      status: 'active',
    })
    .returning('id');
  Object.assign(ids, {
    workspaceId: w.workspaceId,
    businessFlowId: w.flowId,
    documentId: document.id,
    taskId: task.id,
    invitationId: guest.invitation.id,
    userId: guest.invitation.attributes.oneTimeUserId,
    kind: 'task-assigned',
    locale: 'ja',
  });
});
afterAll(() => app?.close());

/** What the guest could reach: compared before and after the walk. */
async function snapshot() {
  const { knex } = app.service.deps;
  return {
    flow: await knex('business_flows').where({ id: w.flowId }).first(),
    documents: await knex('documents').where({ business_flow_id: w.flowId }).orderBy('id'),
    tasks: await knex('tasks').where({ document_id: ids.documentId }).orderBy('id'),
    invitation: await knex('one_time_invitations').where({ id: guest.invitation.id }).first(),
    users: await knex('one_time_users').where({ workspace_id: w.workspaceId }).orderBy('id'),
  };
}

describe("a guest's token on members' operations", () => {
  it('answers 401 on every operation that is not a guest operation, and changes nothing', async () => {
    const before = await snapshot();
    const today = new Date().toISOString().slice(0, 10);
    const operations = [...loadContract().operations.values()].filter((op) => op.authenticated && !op.guest);
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) {
      const params = Object.fromEntries(
        op.parameters
          .filter((p) => p.in === 'path')
          .map((p) => [p.name, ids[p.name] ?? '00000000-0000-4000-8000-000000000000']),
      );
      const query = Object.fromEntries(
        op.parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, today]),
      );
      const body = ['POST', 'PUT', 'PATCH'].includes(op.method.toUpperCase())
        ? { data: { type: 'Anything', attributes: { lockVersion: 0 } } }
        : undefined;
      const response = await app.api.call(op.operationId as never, {
        token: guest.authorizationToken,
        params,
        query,
        body,
      });
      expect([401, 403, 404], `${op.operationId} answered ${response.status}`).toContain(response.status);
      expect(JSON.stringify(response.body ?? ''), op.operationId).not.toContain('ゲストの契約書');
    }
    expect(await snapshot()).toEqual(before);
    // The walk did not end the guest's own session.
    expect((await app.api.call('getOneTimeMe', { token: guest.authorizationToken })).status).toBe(200);
  });
});
