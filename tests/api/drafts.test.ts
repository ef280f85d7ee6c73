/*
 * Drafts ([4/8] send in one sitting): a business flow created with `draft: true` is prepared with the usual
 * operations (upload, task plan, one-time invitations) while nothing goes live and nothing is mailed (the outbox
 * table stays as it was); only editors of the owner organization see it; sendBusinessFlow makes it live (order 1
 * active, task mails, deferred invitation mails) and discardBusinessFlowDraft deletes it. Also: an upload into a
 * completed flow reopens it, and a new organization starts with a group and a workspace so it can send at once.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { signedInOwner, signUpOrganization, signIn } from '../helpers/accounts.ts';
import type { TestApp } from '../helpers/app.ts';
import { createFlow, insertFlow } from '../helpers/business-flows.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { guestTask, inviteGuest, newestLinkToken, signInGuest } from '../helpers/one-time-guests.ts';
import { acceptTerms } from '../helpers/one-time.ts';
import { lastLog } from '../helpers/org-admin.ts';
import {
  documentLockVersion,
  groupTask,
  newDocument,
  partnerTask,
  plan,
  putPlan,
  seedTaskWorld,
  startTaskApp,
  taskStatuses,
  type TaskWorld,
} from '../helpers/tasks.ts';

// Guests sign in through mail round trips (pg-boss jobs): slow on a busy two-core machine.
vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let w: TaskWorld;
beforeAll(async () => {
  app = await startTaskApp();
  w = await seedTaskWorld(app);
});
afterAll(() => app?.close());

const knex = () => app.service.deps.knex;
const errorOf = (response: { status: number; body: any }) => [response.status, response.body?.errors?.[0]?.code];
const outboxCount = async () => Number((await knex()('outgoing_messages').count({ n: '*' }))[0]!.n);
const messagesTo = (address: string) =>
  knex()('outgoing_messages').where({ to_address: address }).orderBy('created_at').select('kind');
const flowRow = (id: string) => knex()('business_flows').where({ id }).first();

const newDraft = (name = '下書きフロー', token = w.ownerA.token) =>
  createFlow(app, token, w.workspaceId, { name, draft: true });
const lock = (lockVersion: number) => ({ data: { type: 'BusinessFlow', attributes: { lockVersion } } });
async function send(flowId: string, token = w.ownerA.token, lockVersion?: number) {
  const version = lockVersion ?? (await flowRow(flowId)).lock_version;
  return app.api.call('sendBusinessFlow', { token, params: { businessFlowId: flowId }, body: lock(version) });
}
async function discard(flowId: string, token = w.ownerA.token, lockVersion?: number) {
  const version = lockVersion ?? (await flowRow(flowId))?.lock_version ?? 0;
  return app.api.call('discardBusinessFlowDraft', {
    token,
    params: { businessFlowId: flowId },
    query: { lockVersion: version },
  });
}
const listedIds = async (token: string, query: Record<string, string> = {}) =>
  (await app.api.call('listBusinessFlows', { token, query: { 'page[size]': 100, ...query } })).body.data.map(
    (f: { id: string }) => f.id,
  );

describe('a draft', () => {
  let draftId: string;
  let documentId: string;
  let guestSigner: { email: string; oneTimeUserId: string };
  let guestReader: { email: string; oneTimeUserId: string };
  let outboxBefore: number;

  beforeAll(async () => {
    outboxBefore = await outboxCount();
    const draft = await newDraft('下書き 売買契約');
    draftId = draft.id;
    expect(draft.attributes.status).toBe('draft');
    const document = await uploadPdf(app, w.ownerA.token, draftId, { name: '下書き契約書' });
    documentId = document.id;
    expect(document.attributes.status).toBe('draft');
    await markScanned(app, documentId);
    guestSigner = { email: `draft-signer-${Date.now()}@example.com`, oneTimeUserId: '' };
    guestReader = { email: `draft-reader-${Date.now()}@example.com`, oneTimeUserId: '' };
    for (const guest of [guestSigner, guestReader]) {
      const invited = await inviteGuest(app, w.ownerA.token, draftId, 'ゲスト', guest.email);
      guest.oneTimeUserId = invited.attributes.oneTimeUserId;
    }
    await plan(app, w.ownerA.token, documentId, [
      guestTask(1, 'sign', guestSigner.oneTimeUserId),
      groupTask(2, 'approve', w.g1),
      partnerTask(2, 'sign', w.ownerB.organizationId),
      guestTask(3, 'read', guestReader.oneTimeUserId),
    ]);
  });

  it('stores documents, plan and invitations with every task waiting and the outbox unchanged', async () => {
    expect(await taskStatuses(app, documentId)).toEqual(['1:waiting', '2:waiting', '2:waiting', '3:waiting']);
    expect((await knex()('documents').where({ id: documentId }).first()).status).toBe('draft');
    const invitations = await knex()('one_time_invitations').where({ business_flow_id: draftId });
    expect(invitations.map((i) => [i.mail_pending, i.link_expires_at])).toEqual([
      [true, null],
      [true, null],
    ]);
    // Not a single mail queued: no task mail, no invitation mail.
    expect(await outboxCount()).toBe(outboxBefore);
    const detail = await app.api.call('getBusinessFlow', {
      token: w.userA1.token,
      params: { businessFlowId: draftId },
    });
    expect(detail.status).toBe(200);
    expect(detail.body.data.attributes.status).toBe('draft');
  });

  it('is hidden from partners, non-editors and other organizations (404), and from lists unless asked for', async () => {
    const other = await signedInOwner(app, { organizationName: '株式会社C' });
    for (const token of [w.ownerB.token, w.userB.token, w.userA2.token, other.token]) {
      const flow = await app.api.call('getBusinessFlow', { token, params: { businessFlowId: draftId } });
      expect(errorOf(flow)).toEqual([404, 'NOT_FOUND']);
      const document = await app.api.call('getDocument', { token, params: { documentId } });
      expect(errorOf(document)).toEqual([404, 'NOT_FOUND']);
    }
    expect(await listedIds(w.ownerA.token)).not.toContain(draftId);
    expect(await listedIds(w.ownerA.token, { 'filter[status]': 'draft' })).toEqual([draftId]);
    expect(await listedIds(w.userA1.token, { 'filter[status]': 'draft,in_progress' })).toContain(draftId);
    expect(await listedIds(w.userA2.token, { 'filter[status]': 'draft' })).toEqual([]);
    expect(await listedIds(w.ownerB.token, { 'filter[status]': 'draft' })).toEqual([]);
    const search = await app.api.call('searchBusinessFlows', { token: w.ownerA.token, body: { filter: {} } });
    expect(search.body.data.map((f: { id: string }) => f.id)).not.toContain(draftId);
    const exported = await app.api.call('exportBusinessFlowsCsv', { token: w.ownerA.token, body: { filter: {} } });
    expect(exported.status).toBe(200);
    expect(String(exported.body)).not.toContain('下書き 売買契約');
    // Its waiting tasks are nobody's to do.
    const mine = await app.api.call('listMyTasks', { token: w.userA1.token });
    expect(mine.body.data.map((t: any) => t.attributes.document.id)).not.toContain(documentId);
  });

  it('refuses a stale lockVersion and other organizations, then sends: tasks go live and mails go out once', async () => {
    const flow = await flowRow(draftId);
    expect(errorOf(await send(draftId, w.ownerA.token, flow.lock_version + 1))).toEqual([
      409,
      'UPDATED_BY_ANOTHER_USER',
    ]);
    expect(errorOf(await send(draftId, w.ownerB.token))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await send(draftId, w.userA2.token))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await discard(draftId, w.ownerB.token))).toEqual([404, 'NOT_FOUND']);

    const sent = await send(draftId, w.userA1.token);
    expect(sent.status).toBe(200);
    expect(sent.body.data.attributes.status).toBe('in_progress');
    expect((await knex()('documents').where({ id: documentId }).first()).status).toBe('in_progress');
    expect(await taskStatuses(app, documentId)).toEqual(['1:active', '2:waiting', '2:waiting', '3:waiting']);
    expect(await lastLog(app, 'business_flow.sent', draftId)).toBeTruthy();
    expect(await listedIds(w.ownerA.token)).toContain(draftId);

    // The guest who signs at order 1 gets only the task mail; the reader (order 3) gets the invitation once.
    expect((await messagesTo(guestSigner.email)).map((m) => m.kind)).toEqual(['one-time-task-assigned']);
    expect((await messagesTo(guestReader.email)).map((m) => m.kind)).toEqual(['one-time-invitation']);
    const invitations = await knex()('one_time_invitations').where({ business_flow_id: draftId });
    expect(invitations.every((i) => i.mail_pending === false)).toBe(true);

    // The task mail's link is live: the guest signs in with it and sees the flow.
    const token = await signInGuest(app, guestSigner.email, await newestLinkToken(app, guestSigner.email));
    await acceptTerms(app, token);
    const seen = await app.api.call('getOneTimeBusinessFlow', { token, params: { businessFlowId: draftId } });
    expect(seen.status).toBe(200);

    expect(errorOf(await send(draftId))).toEqual([409, 'BUSINESS_FLOW_NOT_DRAFT']);
    expect(errorOf(await discard(draftId))).toEqual([409, 'BUSINESS_FLOW_NOT_DRAFT']);
  });
});

describe('sending refuses an incomplete draft', () => {
  it('without documents, with a document without tasks, and with a document not scanned clean', async () => {
    const draft = await newDraft('空の下書き');
    expect(errorOf(await send(draft.id))).toEqual([422, 'DRAFT_HAS_NO_DOCUMENTS']);

    const bare = await newDocument(app, w.ownerA.token, draft.id, 'clean', '宛先なし');
    const noTasks = await send(draft.id);
    expect(errorOf(noTasks)).toEqual([422, 'DRAFT_DOCUMENT_WITHOUT_TASKS']);
    expect(noTasks.body.errors[0].source.pointer).toBe('/data/relationships/documents/0');
    expect(noTasks.body.errors[0].meta.messages.ja).toContain('宛先');

    await plan(app, w.ownerA.token, bare, [groupTask(1, 'approve', w.g1)]);
    const pending = await newDocument(app, w.ownerA.token, draft.id, null, 'スキャン中');
    await plan(app, w.ownerA.token, pending, [groupTask(1, 'approve', w.g1)]);
    expect(errorOf(await send(draft.id))).toEqual([409, 'DOCUMENT_BEING_SCANNED']);
    expect(await taskStatuses(app, bare)).toEqual(['1:waiting']);
    expect((await flowRow(draft.id)).status).toBe('draft');

    // A document taken out of the draft (cancelDocument) is left out, and mails nobody.
    const before = await outboxCount();
    const cancelled = await app.api.call('cancelDocument', {
      token: w.ownerA.token,
      params: { documentId: pending },
      body: {
        data: {
          type: 'DocumentCancel',
          attributes: { lockVersion: await documentLockVersion(app, pending), reason: '不要' },
        },
      },
    });
    expect(cancelled.status).toBe(200);
    expect(await outboxCount()).toBe(before);
    expect((await send(draft.id)).status).toBe(200);
    expect(await taskStatuses(app, bare)).toEqual(['1:active']);
  });

  it('runs the plan rules again: a partner no longer taking part refuses the send', async () => {
    const draft = await newDraft('参加者が外れた下書き');
    const documentId = await newDocument(app, w.ownerA.token, draft.id);
    await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      partnerTask(2, 'read', w.ownerB.organizationId),
    ]);
    const participant = { workspace_id: w.workspaceId, partner_organization_id: w.ownerB.organizationId };
    const saved = await knex()('workspace_participants').where(participant).first();
    await knex()('workspace_participants').where(participant).delete();
    try {
      const refused = await send(draft.id);
      expect(errorOf(refused)).toEqual([422, 'TASK_ASSIGNEE_NOT_PARTICIPANT']);
      expect(refused.body.errors[0].source.pointer).toBe(
        '/data/relationships/documents/0/tasks/1/assignee/organizationId',
      );
    } finally {
      await knex()('workspace_participants').insert(saved);
    }
    expect((await send(draft.id)).status).toBe(200);
  });
});

describe('discarding a draft', () => {
  it('deletes the flow with its documents, tasks, fields and invitations; only drafts', async () => {
    const draft = await newDraft('破棄する下書き');
    const documentId = await newDocument(app, w.ownerA.token, draft.id);
    const guest = await inviteGuest(app, w.ownerA.token, draft.id, 'ゲスト', `discard-${Date.now()}@example.com`);
    await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, {
        fields: [{ kind: 'signature', page: 1, rect: { x1: 50, y1: 50, x2: 150, y2: 100 } }],
      } as never),
      guestTask(2, 'read', guest.attributes.oneTimeUserId),
    ]);
    const taskIds = (await knex()('tasks').where({ document_id: documentId }).select('id')).map((t) => t.id);
    expect(await knex()('task_fields').whereIn('task_id', taskIds).count({ n: '*' })).toEqual([
      { n: expect.anything() },
    ]);
    expect(errorOf(await discard(draft.id, w.userA2.token))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await discard(draft.id, w.ownerA.token, 999))).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);

    const before = await outboxCount();
    const discarded = await discard(draft.id, w.userA1.token);
    expect(discarded.status).toBe(204);
    expect(await flowRow(draft.id)).toBeUndefined();
    expect(await knex()('documents').where({ id: documentId }).first()).toBeUndefined();
    expect(await knex()('tasks').whereIn('id', taskIds)).toEqual([]);
    expect(await knex()('task_fields').whereIn('task_id', taskIds)).toEqual([]);
    expect(await knex()('one_time_invitations').where({ id: guest.id })).toEqual([]);
    expect(await outboxCount()).toBe(before);
    expect(await lastLog(app, 'business_flow.draft_discarded', draft.id)).toBeTruthy();
    expect(
      errorOf(await app.api.call('getBusinessFlow', { token: w.ownerA.token, params: { businessFlowId: draft.id } })),
    ).toEqual([404, 'NOT_FOUND']);

    const live = await createFlow(app, w.ownerA.token, w.workspaceId, { name: '送信済みフロー' });
    expect(errorOf(await discard(live.id))).toEqual([409, 'BUSINESS_FLOW_NOT_DRAFT']);
  });

  it('a partner (even an editable one) cannot start a draft', async () => {
    await knex()('workspace_participants')
      .where({ workspace_id: w.workspaceId, partner_organization_id: w.ownerB.organizationId })
      .update({ is_editable: true });
    try {
      const response = await app.api.call('createBusinessFlow', {
        token: w.ownerB.token,
        params: { workspaceId: w.workspaceId },
        body: { data: { type: 'BusinessFlow', attributes: { name: '取引先の下書き', draft: true } } },
      });
      expect(errorOf(response)).toEqual([403, 'FORBIDDEN']);
    } finally {
      await knex()('workspace_participants')
        .where({ workspace_id: w.workspaceId, partner_organization_id: w.ownerB.organizationId })
        .update({ is_editable: false });
    }
  });
});

describe('a document uploaded into a completed flow', () => {
  it('reopens the flow (in progress, completedAt cleared) and logs why', async () => {
    const flowId = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, {
      name: '完了済みフロー',
      status: 'complete',
    });
    await knex()('business_flows').where({ id: flowId }).update({ completed_at: new Date() });
    const document = await uploadPdf(app, w.ownerA.token, flowId, { name: '追加の書類' });
    const flow = await app.api.call('getBusinessFlow', { token: w.ownerA.token, params: { businessFlowId: flowId } });
    expect(flow.body.data.attributes).toMatchObject({ status: 'in_progress', completedAt: null });
    const log = await lastLog(app, 'business_flow.reopened', flowId);
    expect(log.details).toMatchObject({ before: 'complete', reason: 'document_uploaded', documentId: document.id });

    // An incomplete flow keeps its status: it accepts documents and is completed by hand (see the contract).
    const incomplete = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, { status: 'incomplete' });
    await uploadPdf(app, w.ownerA.token, incomplete);
    expect((await flowRow(incomplete)).status).toBe('incomplete');
  });
});

describe('a new organization', () => {
  it('starts with a group named after it and a workspace in its language, and can send at once', async () => {
    const ja = await signUpOrganization(app, { organizationName: '株式会社はじめて', locale: 'ja' });
    const en = await signUpOrganization(app, { organizationName: 'First Steps Inc.', locale: 'en' });
    const workspaceOf = (organizationId: string) =>
      knex()('workspaces as w')
        .join('workspace_participants as p', 'p.workspace_id', 'w.id')
        .join('groups as g', 'g.id', 'p.group_id')
        .where('w.organization_id', organizationId)
        .select('w.id', 'w.name', 'g.name as group_name', 'p.is_public', 'p.is_editable', 'g.id as group_id');
    const [jaWorkspace] = await workspaceOf(ja.organizationId);
    expect(jaWorkspace).toMatchObject({
      name: '株式会社はじめての契約',
      group_name: '株式会社はじめて',
      is_public: true,
      is_editable: true,
    });
    const [enWorkspace] = await workspaceOf(en.organizationId);
    expect(enWorkspace).toMatchObject({ name: 'First Steps Inc. contracts', group_name: 'First Steps Inc.' });
    const member = await knex()('group_members').where({ group_id: jaWorkspace.group_id, user_id: ja.ownerId }).first();
    expect(member).toBeTruthy();

    const { authorizationToken: token } = await signIn(app, ja.loginId, ja.password);
    const listed = await app.api.call('listWorkspaces', { token });
    expect(listed.body.data.map((x: { id: string }) => x.id)).toEqual([jaWorkspace.id]);
    const draft = await createFlow(app, token, jaWorkspace.id, { name: '最初の契約', draft: true });
    const documentId = await newDocument(app, token, draft.id);
    await plan(app, token, documentId, [groupTask(1, 'approve', jaWorkspace.group_id)]);
    const sent = await app.api.call('sendBusinessFlow', {
      token,
      params: { businessFlowId: draft.id },
      body: lock((await flowRow(draft.id)).lock_version),
    });
    expect(sent.status).toBe(200);
    expect(await taskStatuses(app, documentId)).toEqual(['1:active']);
  });
});

describe('plan edits in a draft', () => {
  it('replace the plan with tasks still waiting and refuse fields out of the page', async () => {
    const draft = await newDraft('編集中');
    const documentId = await newDocument(app, w.ownerA.token, draft.id);
    await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1)]);
    await plan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1), groupTask(2, 'read', w.g2)]);
    expect(await taskStatuses(app, documentId)).toEqual(['1:waiting', '2:waiting']);
    const outOfPage = await putPlan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, {
        fields: [{ kind: 'seal', page: 2, rect: { x1: 1, y1: 1, x2: 20, y2: 20 } }],
      } as never),
    ]);
    expect(errorOf(outOfPage)).toEqual([422, 'SIGNING_PAGE_NOT_FOUND']);
    expect((await knex()('documents').where({ id: documentId }).first()).status).toBe('draft');
  });
});
