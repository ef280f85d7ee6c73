/*
 * "My tasks" pages read per assignment branch (each group of the caller's, their organization as partner) and
 * merged: every executable task exactly once and in order across pages, by number and by cursor, in both directions,
 * with ties on the activation time across branches, the count capped like the other lists; and nothing of a group the
 * caller is not in, of a role they lack, of a document past or before its current order, or of a cancelled flow.
 * The expectation is read from the seed's own labels (documents named ok-… or no-…), not from the list's rule.
 */
import type { Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIST_COUNT_CAP } from '../../core/http/pagination.ts';
import { firstGroupId, signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
let token: string;
const knex = () => app.service.deps.knex;

/** Executable tasks seeded: more than the cap, so the count stops and the last pages count exactly. */
const GROUP_ONE = 120;
const GROUP_TWO = 70;
const AS_PARTNER = 40;
const EXECUTABLE = GROUP_ONE + GROUP_TWO + AS_PARTNER;

/** Inserts one document per task, named by `label` and the task's number, with the task active at `order`. */
async function seedTasks(
  count: number,
  document: { organizationId: string; flowId: string; label: string; status?: string; currentOrder?: number },
  task: Record<string, unknown>,
) {
  await knex().raw(
    `WITH d AS (
       INSERT INTO documents (organization_id, business_flow_id, name, status, current_order)
       SELECT ?, ?, ? || lpad(i::text, 3, '0'), ?, ? FROM generate_series(1, ?) AS i RETURNING id, name)
     INSERT INTO tasks (organization_id, document_id, task_order, type, assignee_kind, group_id,
                        partner_organization_id, role_id, status, updated_at)
     SELECT ?, d.id, 1, CASE WHEN right(d.name, 1) IN ('0', '5') THEN 'sign' ELSE 'approve' END, ?, ?, ?, ?, 'active',
            -- Three tasks share each activation time, across the branches too: the id breaks the ties.
            timestamptz '2026-11-01 00:00:00+00' + (right(d.name, 3)::int / 3) * interval '1 minute'
       FROM d`,
    <Knex.Value[]>[
      document.organizationId,
      document.flowId,
      document.label,
      document.status ?? 'in_progress',
      document.currentOrder ?? 1,
      count,
      document.organizationId,
      task.assigneeKind ?? 'group',
      task.groupId ?? null,
      task.partnerOrganizationId ?? null,
      task.roleId ?? null,
    ],
  );
}

beforeAll(async () => {
  app = await startApp();
  const a = await signedInOwner(app, { organizationName: '自社株式会社' });
  const b = await signedInOwner(app, { organizationName: '取引先株式会社' });
  token = a.token;
  const groupOne = await firstGroupId(app, a.organizationId);
  const [groupTwo, notMine] = await knex()('groups')
    .insert([
      { organization_id: a.organizationId, name: '経理部' },
      { organization_id: a.organizationId, name: '他部署' },
    ])
    .returning('id')
    .then((rows) => rows.map((row) => row.id as string));
  await knex()('group_members').insert({ group_id: groupTwo, user_id: a.ownerId });
  const permissions = { sign: { execute: true, view: true }, approve: { execute: true, view: true } };
  const [held, lacked] = await knex()('roles')
    .insert([
      { organization_id: a.organizationId, name: '承認者', task_permissions: permissions },
      { organization_id: a.organizationId, name: '役員', task_permissions: permissions },
    ])
    .returning('id')
    .then((rows) => rows.map((row) => row.id as string));
  await knex()('user_roles').insert({ user_id: a.ownerId, role_id: held });

  const workspaceA = await seedWorkspace(app, a.organizationId, [{ groupId: groupOne, isEditable: true }]);
  const flowA = await insertFlow(app, a.organizationId, workspaceA, { createdBy: a.ownerId });
  const cancelled = await insertFlow(app, a.organizationId, workspaceA, { status: 'cancelled' });
  const workspaceB = await seedWorkspace(app, b.organizationId, [{ partnerOrganizationId: a.organizationId }]);
  const flowB = await insertFlow(app, b.organizationId, workspaceB, { createdBy: b.ownerId });
  const own = { organizationId: a.organizationId, flowId: flowA };

  await seedTasks(GROUP_ONE - 20, { ...own, label: 'ok-g1-' }, { groupId: groupOne });
  await seedTasks(20, { ...own, label: 'ok-g1-role-' }, { groupId: groupOne, roleId: held });
  await seedTasks(GROUP_TWO, { ...own, label: 'ok-g2-', status: 'remanded' }, { groupId: groupTwo });
  await seedTasks(
    AS_PARTNER,
    { organizationId: b.organizationId, flowId: flowB, label: 'ok-partner-' },
    { assigneeKind: 'organization', partnerOrganizationId: a.organizationId },
  );
  // Not executable by the owner.
  await seedTasks(15, { ...own, label: 'no-other-group-' }, { groupId: notMine });
  await seedTasks(15, { ...own, label: 'no-role-' }, { groupId: groupOne, roleId: lacked });
  await seedTasks(15, { ...own, label: 'no-later-order-', currentOrder: 2 }, { groupId: groupOne });
  await seedTasks(15, { ...own, label: 'no-completed-', status: 'completed' }, { groupId: groupTwo });
  await seedTasks(
    15,
    { organizationId: a.organizationId, flowId: cancelled, label: 'no-cancelled-' },
    { groupId: groupOne },
  );
  await seedTasks(
    15,
    { organizationId: b.organizationId, flowId: flowB, label: 'no-other-partner-' },
    { assigneeKind: 'organization', partnerOrganizationId: b.organizationId },
  );
}, 120_000);
afterAll(() => app?.close());

/** The executable tasks' ids in an order, from the seed's labels. */
async function expected(order: 'desc' | 'asc' | 'name', type?: string) {
  const query = knex()('tasks as t')
    .join('documents as d', 'd.id', 't.document_id')
    .where('d.name', 'like', 'ok-%')
    .orderBy(
      order === 'name'
        ? [{ column: 'd.name' }, { column: 't.id' }]
        : [
            { column: 't.updated_at', order },
            { column: 't.id', order },
          ],
    )
    .select('t.id');
  if (type) query.where('t.type', type);
  return (await query).map((row) => row.id as string);
}

const list = (query: Record<string, string | number>) => app.api.call('listMyTasks', { token, query });

async function readByCursor(query: Record<string, string | number>) {
  const ids: string[] = [];
  let after: string | undefined;
  for (let pages = 0; pages < 50; pages += 1) {
    const answer = await list({ ...query, 'page[size]': 25, ...(after ? { 'page[after]': after } : {}) });
    expect(answer.status).toBe(200);
    ids.push(...(answer.body.data as { id: string }[]).map((task) => task.id));
    after = answer.body.meta.page.next;
    if (!after) return ids;
  }
  throw new Error('more pages than tasks');
}

describe('my tasks read per assignment branch', () => {
  it('pages by number in order, every executable task once, the count capped and then exact', async () => {
    const want = await expected('desc');
    expect(want).toHaveLength(EXECUTABLE);
    const got: string[] = [];
    for (let number = 1; number <= Math.ceil(EXECUTABLE / 20); number += 1) {
      const answer = await list({ 'page[number]': number, 'page[size]': 20 });
      expect(answer.status).toBe(200);
      got.push(...(answer.body.data as { id: string }[]).map((task) => task.id));
      if (number === 1) expect(answer.body.meta).toMatchObject({ total: LIST_COUNT_CAP, totalCapped: true });
      if (number * 20 >= EXECUTABLE) expect(answer.body.meta).toMatchObject({ total: EXECUTABLE, totalCapped: false });
    }
    expect(got).toEqual(want);
  });

  it('pages by cursor in both directions and by document name', async () => {
    expect(await readByCursor({ sort: '-activatedAt' })).toEqual(await expected('desc'));
    expect(await readByCursor({ sort: 'activatedAt' })).toEqual(await expected('asc'));
    const byName = await readByCursor({ sort: 'documentName' });
    expect(byName).toEqual(await expected('name'));
  });

  it('applies the type filter inside every branch', async () => {
    const signs = await readByCursor({ 'filter[type]': 'sign' });
    const want = await expected('desc', 'sign');
    expect(want.length).toBeGreaterThan(20);
    expect(signs).toEqual(want);
  });

  it('shows a partner task under its owner organization, every one of them', async () => {
    const all: { attributes: { workspace: { ownerOrganizationName: string } } }[] = [];
    for (let number = 1; number <= Math.ceil(EXECUTABLE / 100); number += 1) {
      all.push(...(await list({ 'page[number]': number, 'page[size]': 100 })).body.data);
    }
    const owners = all.map((task) => task.attributes.workspace.ownerOrganizationName);
    expect(owners.filter((name) => name === '取引先株式会社')).toHaveLength(AS_PARTNER);
    expect(owners.filter((name) => name === '自社株式会社')).toHaveLength(GROUP_ONE + GROUP_TWO);
  });
});
