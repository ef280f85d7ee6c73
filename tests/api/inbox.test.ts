/*
 * GET /me/inbox (getInbox): every section and warning with data made through the real operations (plans, steps,
 * uploads, e-certificate registration), tenancy (another organization's flows never appear), a partner user's own
 * tasks, the capped count, and a guest token refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOwner, signIn } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { callMultipart } from '../helpers/documents.ts';
import { signedInGuest } from '../helpers/one-time-guests.ts';
import { confirmEmailOf, makePkcs12 } from '../helpers/signing.ts';
import {
  groupTask,
  newDocument,
  partnerTask,
  plan,
  seedTaskWorld,
  startTaskApp,
  step,
  type TaskWorld,
} from '../helpers/tasks.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
let w: TaskWorld;
const knex = () => app.service.deps.knex;

interface Item {
  businessFlow: { id: string; name: string };
  document: { id: string; name: string } | null;
  task: { id: string; type: string } | null;
  since: string;
  counterparty: string | null;
  reason?: string | null;
  blockedByScan?: boolean;
}
interface Section {
  count: number;
  capped: boolean;
  items: Item[];
}
interface Inbox {
  waitingForMe: Section;
  waitingForOthers: Section;
  drafts: Section;
  completedRecently: Section;
  remandedToMe: Section;
  warnings: { code: string; params: Record<string, any> }[];
}

async function inbox(token: string): Promise<Inbox> {
  const response = await app.api.call('getInbox', { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  expect(response.body.data.type).toBe('Inbox');
  return response.body.data.attributes as Inbox;
}

const nameOf = async (userId: string) => (await knex()('users').where({ id: userId }).first('name')).name as string;
const flowIds = (section: Section) => section.items.map((i) => i.businessFlow.id);
const documentIds = (section: Section) => section.items.map((i) => i.document?.id);

/** A flow of A's workspace created by A's owner (as the API would record it). */
const newFlow = (name: string) =>
  insertFlow(app, w.ownerA.organizationId, w.workspaceId, { name, createdBy: w.ownerA.ownerId });

beforeAll(async () => {
  app = await startTaskApp();
  w = await seedTaskWorld(app);
});
afterAll(() => app.close());

describe('GET /me/inbox', () => {
  it('waiting for me: the tasks I can execute now, oldest first, with who sent them; a partner user sees theirs', async () => {
    const flowId = await newFlow('受注フロー');
    const older = await newDocument(app, w.ownerA.token, flowId, 'clean', '古い契約書');
    const olderTasks = await plan(app, w.ownerA.token, older, [groupTask(1, 'approve', w.g1)]);
    const newer = await newDocument(app, w.ownerA.token, flowId, null, '新しい契約書');
    const newerTasks = await plan(app, w.ownerA.token, newer, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator' }),
    ]);
    const partnerDocument = await newDocument(app, w.ownerA.token, flowId, 'clean', '取引先の書類');
    const partnerTasks = await plan(app, w.ownerA.token, partnerDocument, [
      partnerTask(1, 'approve', w.ownerB.organizationId),
      groupTask(2, 'approve', w.g2),
    ]);
    // The older task was activated an hour earlier.
    await knex()('tasks')
      .where({ id: olderTasks[0]!.id })
      .update({ updated_at: new Date(Date.now() - 3_600_000) });

    const a1 = await inbox(w.userA1.token);
    const mine = a1.waitingForMe.items.filter((i) => i.businessFlow.id === flowId);
    expect(mine.map((i) => i.task!.id)).toEqual([olderTasks[0]!.id, newerTasks[0]!.id]);
    expect(mine[0]).toMatchObject({
      document: { id: older, name: '古い契約書' },
      task: { type: 'approve' },
      counterparty: await nameOf(w.ownerA.ownerId),
      blockedByScan: false,
    });
    expect(mine[1]).toMatchObject({ task: { type: 'sign' }, blockedByScan: true });
    expect(a1.waitingForMe.count).toBeGreaterThanOrEqual(2);
    // The same rule as GET /tasks/mine.
    const listed = await app.api.call('listMyTasks', { token: w.userA1.token, query: { 'page[size]': 100 } });
    expect(a1.waitingForMe.count).toBe(listed.body.meta.total);
    // A2 (group G2 only) has nothing of G1's.
    expect((await inbox(w.userA2.token)).waitingForMe.items.map((i) => i.task!.id)).not.toContain(olderTasks[0]!.id);

    // The partner user sees their organization's task, sent by organization A.
    const b = await inbox(w.userB.token);
    expect(b.waitingForMe.items).toEqual([
      expect.objectContaining({ task: { id: partnerTasks[0]!.id, type: 'approve' }, counterparty: '株式会社A' }),
    ]);
  });

  it('waiting for others: my flows with an active task I cannot execute, with whom it waits on', async () => {
    const flowId = await newFlow('先方確認フロー');
    const documentId = await newDocument(app, w.ownerA.token, flowId, 'clean', '先方署名待ち');
    const tasks = await plan(app, w.ownerA.token, documentId, [
      partnerTask(1, 'approve', w.ownerB.organizationId),
      groupTask(2, 'approve', w.g1),
    ]);
    const owner = await inbox(w.ownerA.token);
    const item = owner.waitingForOthers.items.find((i) => i.businessFlow.id === flowId);
    expect(item).toMatchObject({
      document: { id: documentId, name: '先方署名待ち' },
      task: { id: tasks[0]!.id, type: 'approve' },
      counterparty: '株式会社B',
    });
    // A1 edits the workspace (G1 is editable) and cannot run B's task: waiting for others too.
    expect(flowIds((await inbox(w.userA1.token)).waitingForOthers)).toContain(flowId);
    // A2 neither created it nor edits the workspace.
    expect(flowIds((await inbox(w.userA2.token)).waitingForOthers)).not.toContain(flowId);
    // B can run it: waiting for B, not for others of B.
    const b = await inbox(w.userB.token);
    expect(b.waitingForMe.items.map((i) => i.task!.id)).toContain(tasks[0]!.id);
    expect(flowIds(b.waitingForOthers)).not.toContain(flowId);

    // Once B approves, order 2 is G1's: waiting for A1 (and the owner, a member of G1), no longer for others.
    expect((await step(app, w.userB.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    expect(flowIds((await inbox(w.ownerA.token)).waitingForOthers)).not.toContain(flowId);
    expect((await inbox(w.userA1.token)).waitingForMe.items.map((i) => i.task!.id)).toContain(tasks[1]!.id);
  });

  it('drafts: my own draft flows, last edited first; not other users’ drafts', async () => {
    // Drafts as the send wizard leaves them (createBusinessFlow with draft: true is H1's; its rows are these).
    const create = async (userId: string, name: string) => {
      const [row] = await knex()('business_flows')
        .insert({
          organization_id: w.ownerA.organizationId,
          workspace_id: w.workspaceId,
          name,
          status: 'draft',
          created_by: userId,
        })
        .returning('id');
      return row.id as string;
    };
    const first = await create(w.userA1.id, '下書き1');
    const second = await create(w.userA1.id, '下書き2');
    await knex()('business_flows')
      .where({ id: first })
      .update({ updated_at: new Date(Date.now() - 60_000) });
    const ownersDraft = await create(w.ownerA.ownerId, '管理者の下書き');
    const a1 = await inbox(w.userA1.token);
    expect(a1.drafts.count).toBe(2);
    expect(flowIds(a1.drafts)).toEqual([second, first]);
    expect(a1.drafts.items[0]).toMatchObject({ businessFlow: { name: '下書き2' }, task: null, document: null });
    expect(flowIds((await inbox(w.ownerA.token)).drafts)).toEqual([ownersDraft]);
    expect((await inbox(w.userB.token)).drafts.count).toBe(0);
    // Drafts are never waiting for anyone, nor in any other section.
    expect(flowIds(a1.waitingForOthers)).not.toContain(first);
  });

  it('completed recently: flows completed in the last 30 days that I created or had a task in', async () => {
    const flowId = await newFlow('完了フロー');
    const documentId = await newDocument(app, w.ownerA.token, flowId, 'clean', '完了する契約書');
    const tasks = await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1)]);
    expect((await step(app, w.userA1.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    expect((await knex()('business_flows').where({ id: flowId }).first()).status).toBe('complete');
    const oldFlow = await newFlow('昔の完了フロー');
    await knex()('business_flows')
      .where({ id: oldFlow })
      .update({ status: 'complete', completed_at: new Date(Date.now() - 40 * 86_400_000) });

    const owner = await inbox(w.ownerA.token);
    expect(owner.completedRecently.items[0]).toMatchObject({ businessFlow: { id: flowId, name: '完了フロー' } });
    expect(flowIds(owner.completedRecently)).not.toContain(oldFlow);
    expect(flowIds((await inbox(w.userA1.token)).completedRecently)).toContain(flowId);
    // A2 can see the flow (public participant) but neither created it nor had a task in it.
    expect(flowIds((await inbox(w.userA2.token)).completedRecently)).not.toContain(flowId);
  });

  it('remanded to me: remanded documents of my flows, with the reason and who remanded', async () => {
    const flowId = await newFlow('差戻しフロー');
    const documentId = await newDocument(app, w.ownerA.token, flowId, 'clean', '差し戻された契約書');
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    expect((await step(app, w.userA1.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    const remand = await step(app, w.userA2.token, 'remandDocument', tasks[1]!.id, {
      toOrder: 1,
      reason: '金額が違います',
    });
    expect(remand.status).toBe(200);
    const owner = await inbox(w.ownerA.token);
    expect(owner.remandedToMe.items.find((i) => i.document?.id === documentId)).toMatchObject({
      businessFlow: { id: flowId },
      reason: '金額が違います',
      counterparty: await nameOf(w.userA2.id),
    });
    // The remand made order 1 live again: A1 has it waiting.
    expect((await inbox(w.userA1.token)).waitingForMe.items.map((i) => i.task!.id)).toContain(tasks[0]!.id);
    expect(documentIds((await inbox(w.userA2.token)).remandedToMe)).not.toContain(documentId);
  });

  it('remanded to me: a partner user’s own upload into another organization’s flow, remanded there', async () => {
    // B takes part in A's workspace as an editable partner: the remanded document is A's, uploaded by B's user.
    const workspaceId = await seedWorkspace(app, w.ownerA.organizationId, [
      { groupId: w.g1, isEditable: true },
      { groupId: w.g2, isEditable: false },
      { partnerOrganizationId: w.ownerB.organizationId, isEditable: true },
    ]);
    const flowId = await insertFlow(app, w.ownerA.organizationId, workspaceId, {
      name: '共同編集フロー',
      createdBy: w.ownerA.ownerId,
    });
    const documentId = await newDocument(app, w.userB.token, flowId, 'clean', 'B社が上げた契約書');
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g2),
    ]);
    expect((await step(app, w.userA1.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    expect(
      (await step(app, w.userA2.token, 'remandDocument', tasks[1]!.id, { toOrder: 1, reason: '押印欄なし' })).status,
    ).toBe(200);
    expect((await inbox(w.userB.token)).remandedToMe.items.find((i) => i.document?.id === documentId)).toMatchObject({
      businessFlow: { id: flowId },
      reason: '押印欄なし',
    });
    expect(documentIds((await inbox(w.ownerA.token)).remandedToMe)).toContain(documentId);
    const c = await signedInOwner(app, { organizationName: '株式会社C' });
    expect(documentIds((await inbox(c.token)).remandedToMe)).not.toContain(documentId);
  });

  it('warnings: e-mail not confirmed, documents blocked by the malware scan', async () => {
    const before = await inbox(w.userA2.token);
    expect(before.warnings).toContainEqual({ code: 'EMAIL_NOT_CONFIRMED', params: { email: expect.any(String) } });
    await confirmEmailOf(app, w.userA2.id);
    expect((await inbox(w.userA2.token)).warnings.map((x) => x.code)).not.toContain('EMAIL_NOT_CONFIRMED');

    const blockedBefore = (await inbox(w.ownerA.token)).warnings.find((x) => x.code === 'DOCUMENTS_BLOCKED_BY_SCAN');
    const flowId = await newFlow('マルウェアフロー');
    await newDocument(app, w.ownerA.token, flowId, 'malicious', '危険な書類');
    const after = (await inbox(w.ownerA.token)).warnings.find((x) => x.code === 'DOCUMENTS_BLOCKED_BY_SCAN');
    expect(after?.params).toEqual({ count: (blockedBefore?.params.count ?? 0) + 1, capped: false });
    // B sees the flow only when it holds a task of B's (B is a public partner here: it sees every flow).
    expect((await inbox(w.userB.token)).warnings.map((x) => x.code)).toContain('DOCUMENTS_BLOCKED_BY_SCAN');
  });

  it('tenancy: another organization sees none of A’s tasks, flows, drafts or blocked documents', async () => {
    const c = await signedInOwner(app, { organizationName: '株式会社C' });
    const cGroup = (await knex()('group_members').where({ user_id: c.ownerId }).first('group_id')).group_id;
    const cWorkspace = await seedWorkspace(app, c.organizationId, [{ groupId: cGroup, isEditable: true }]);
    const cFlow = await insertFlow(app, c.organizationId, cWorkspace, { name: 'C社のフロー', createdBy: c.ownerId });
    const cDocument = await newDocument(app, c.token, cFlow, 'malicious', 'C社の危険な書類');
    const inboxC = await inbox(c.token);
    const everyFlow = (x: Inbox) =>
      [x.waitingForMe, x.waitingForOthers, x.drafts, x.completedRecently, x.remandedToMe].flatMap(flowIds);
    expect(everyFlow(inboxC).every((id) => id === cFlow)).toBe(true);
    expect(inboxC.warnings.find((x) => x.code === 'DOCUMENTS_BLOCKED_BY_SCAN')?.params).toEqual({
      count: 1,
      capped: false,
    });
    for (const token of [w.ownerA.token, w.userA1.token, w.userB.token]) {
      expect(everyFlow(await inbox(token))).not.toContain(cFlow);
    }
    expect(cDocument).toBeTruthy();
  });

  it('counts stop at 100 and say so (shown as "100+"); lists hold 10', async () => {
    const c = await signedInOwner(app, { organizationName: '大量株式会社' });
    const group = (await knex()('group_members').where({ user_id: c.ownerId }).first('group_id')).group_id;
    const workspaceId = await seedWorkspace(app, c.organizationId, [{ groupId: group, isEditable: true }]);
    const flowId = await insertFlow(app, c.organizationId, workspaceId, { name: '大量フロー', createdBy: c.ownerId });
    await knex().raw(
      `WITH d AS (
         INSERT INTO documents (organization_id, business_flow_id, name, status, current_order)
         SELECT ?, ?, '書類 ' || i, 'in_progress', 1 FROM generate_series(1, 101) AS i RETURNING id)
       INSERT INTO tasks (organization_id, document_id, task_order, type, assignee_kind, group_id, status)
       SELECT ?, d.id, 1, 'approve', 'group', ?, 'active' FROM d`,
      [c.organizationId, flowId, c.organizationId, group],
    );
    const many = await inbox(c.token);
    expect(many.waitingForMe).toMatchObject({ count: 100, capped: true });
    expect(many.waitingForMe.items).toHaveLength(10);
  });

  it('a guest token gets 401; no token gets 401', async () => {
    const flowId = await newFlow('ゲストフロー');
    const guest = await signedInGuest(app, w.ownerA.token, flowId);
    expect((await app.api.call('getInbox', { token: guest.token })).status).toBe(401);
    expect((await app.api.call('getInbox', {})).status).toBe(401);
  });

  it('is one prepared statement whose text holds every constant and binds only the caller and the day', async () => {
    // inbox.ts: one text per kind of caller (templated), so PostgreSQL plans it once per connection (a bound status
    // could use neither a partial index nor its statistics, and its generic plan was a hundred times slower).
    const statementsOf = async (token: string) => {
      const seen: { sql: string; bindings: unknown[]; prepared: boolean }[] = [];
      const listener = (q: { sql: string; bindings?: unknown[]; options?: { prepare?: boolean } }) => {
        seen.push({ sql: q.sql, bindings: q.bindings ?? [], prepared: q.options?.prepare === true });
      };
      knex().on('query', listener);
      try {
        await inbox(token);
      } finally {
        knex().off('query', listener);
      }
      return seen.filter((statement) => statement.prepared);
    };
    const [a1] = await statementsOf(w.userA1.token);
    const [a2] = await statementsOf(w.userA2.token);
    const owner = await statementsOf(w.ownerA.token);
    expect(owner).toHaveLength(1);
    expect(a2!.sql).toBe(a1!.sql);
    expect(owner[0]!.sql).not.toBe(a1!.sql);
    const values = new Set([w.userA1.id, w.ownerA.organizationId]);
    for (const binding of a1!.bindings) {
      expect(binding instanceof Date || values.has(binding as string), String(binding)).toBe(true);
    }
    expect(a1!.bindings).toContain(w.userA1.id);
    expect(a2!.bindings).toContain(w.userA2.id);
    expect(a2!.bindings).not.toContain(w.userA1.id);
  });

  // Last: it moves the app's clock.
  it('warnings: my e-certificate expiring within 30 days, then expired', async () => {
    const form = new FormData();
    form.set('file', new Blob([makePkcs12({ commonName: 'A1', pin: 'pin-1', days: 10, ec: true })]), 'me.p12');
    form.set('pin', 'pin-1');
    form.set('pinConfirmation', 'pin-1');
    const registered = await callMultipart(app, 'registerMyECertificate', { token: w.userA1.token, form });
    expect(registered.status).toBe(200);
    const soon = (await inbox(w.userA1.token)).warnings.find((x) => x.code === 'E_CERTIFICATE_EXPIRING');
    expect(soon?.params).toMatchObject({ days: expect.any(Number), expiresAt: expect.any(String) });
    expect(soon!.params.days).toBeGreaterThanOrEqual(9);
    expect(soon!.params.days).toBeLessThanOrEqual(11);
    expect((await inbox(w.userA2.token)).warnings.map((x) => x.code)).not.toContain('E_CERTIFICATE_EXPIRING');
    app.clock.advance(12 * 86_400_000);
    const loginId = (await knex()('users').where({ id: w.userA1.id }).first('login_id')).login_id as string;
    const token = (await signIn(app, loginId)).authorizationToken; // the old access token has expired meanwhile
    const codes = (await inbox(token)).warnings.map((x) => x.code);
    expect(codes).toContain('E_CERTIFICATE_EXPIRED');
    expect(codes).not.toContain('E_CERTIFICATE_EXPIRING');
  });
});
