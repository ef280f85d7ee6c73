/*
 * A one-time user (guest) at work on the business flow they were invited to: what they see, the terms gate, their
 * approve/read/remand/sign steps (the members' own rules and signing engine), the sign record ledger, and assigning
 * tasks to them. Guests are set up through the real invitation and sign-in operations.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyCsv } from '../../cli/log-csv.ts';
import { verifySignRecords } from '../../core/modules/sign-records/ledger.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';
import {
  guestTask,
  inviteGuest,
  mailedLinkTokens,
  newestLinkToken,
  signedInGuest,
} from '../helpers/one-time-guests.ts';
import { linkOf } from '../helpers/one-time.ts';
import { confirmEmailOf, latestPdf, pdfsig, sealPng, signatureDictionaries, signTaskCall } from '../helpers/signing.ts';
import {
  documentRow,
  groupTask,
  insertRole,
  newDocument,
  plan,
  putPlan,
  seedTaskWorld,
  step,
  taskStatuses,
  type TaskWorld,
} from '../helpers/tasks.ts';

// Each test signs a guest in through mail round trips (pg-boss jobs): slow on a busy two-core machine.
vi.setConfig({ testTimeout: 120_000 });

const plugins = () => BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));
let app: TestApp;
beforeAll(async () => {
  app = await startApp({ plugins: plugins() });
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const at = { page: 1, rect: { x1: 300, y1: 80, x2: 380, y2: 140 } };
const pngUrl = (size: number) => `data:image/png;base64,${sealPng(size).toString('base64')}`;

function guestCall(
  operationId: 'approveOneTimeTask' | 'readOneTimeTask' | 'remandOneTimeDocument' | 'signOneTimeTask',
  token: string,
  taskId: string,
  attributes: Record<string, unknown> = {},
) {
  const type = { remandOneTimeDocument: 'TaskRemand', signOneTimeTask: 'TaskSignature' }[
    operationId as 'remandOneTimeDocument'
  ];
  return app.api.call(operationId, {
    token,
    params: { taskId },
    body: { data: { type: type ?? 'TaskExecution', attributes } },
  });
}

const flowOf = (token: string, businessFlowId: string) =>
  app.api.call('getOneTimeBusinessFlow', { token, params: { businessFlowId } });

async function signingCode(app: TestApp, email: string, after: number): Promise<string> {
  const mail = await waitForMail(
    app,
    (m) =>
      recipientOf(m).includes(email) &&
      /署名の認証コード|signing code/.test(m.subject ?? '') &&
      m.date!.getTime() >= after,
  );
  return /(?<![\w-])(\d{6})(?![\w-])/.exec(mail.text ?? '')![1]!;
}

describe('what a guest sees and does', () => {
  it('before the terms every work operation is 403 ONE_TIME_TERMS_REQUIRED', async () => {
    const w = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId, { acceptTerms: false });
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      guestTask(1, 'approve', guest.oneTimeUserId),
      groupTask(2, 'approve', w.g1),
    ]);
    const flow = await flowOf(guest.token, w.flowId);
    expect([flow.status, flow.body.errors[0].code]).toEqual([403, 'ONE_TIME_TERMS_REQUIRED']);
    const approve = await guestCall('approveOneTimeTask', guest.token, task!.id);
    expect([approve.status, approve.body.errors[0].code]).toEqual([403, 'ONE_TIME_TERMS_REQUIRED']);
    const file = await app.api.call('downloadOneTimeDocument', { token: guest.token, params: { documentId } });
    expect(file.status).toBe(403);
    expect((await knex()('tasks').where({ id: task!.id }).first()).status).toBe('active');
  });

  it('sees only the documents carrying their tasks; approves, reads and remands with a reason', async () => {
    const w = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId);
    const withApproval = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '発注書');
    const notTheirs = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '社内稟議');
    const withRead = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '請求書');
    const approvals = await plan(app, w.ownerA.token, withApproval, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'approve', guest.oneTimeUserId),
    ]);
    await plan(app, w.ownerA.token, notTheirs, [groupTask(1, 'approve', w.g1)]);
    const reads = await plan(app, w.ownerA.token, withRead, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'read', guest.oneTimeUserId),
    ]);
    expect(approvals[1]!.attributes.assignee).toMatchObject({
      kind: 'one_time_user',
      id: guest.oneTimeUserId,
      name: guest.name,
      email: guest.email,
    });

    const flow = await flowOf(guest.token, w.flowId);
    expect(flow.status).toBe(200);
    const documents = flow.body.data.attributes.documents;
    expect(documents.map((d: any) => d.name)).toEqual(['発注書', '請求書']);
    expect(documents[0].tasks).toHaveLength(1);
    expect(documents[0].tasks[0]).toMatchObject({ type: 'approve', status: 'waiting', runnable: false });
    expect(documents[0].otherTasks).toEqual([
      expect.objectContaining({
        order: 1,
        type: 'approve',
        status: 'active',
        assignee: expect.objectContaining({ kind: 'group' }),
      }),
    ]);
    expect(documents[1].tasks[0]).toMatchObject({ type: 'read', status: 'waiting', runnable: false });
    expect(flow.body.data.attributes.organizationName).toBe('株式会社A');

    const hidden = await app.api.call('downloadOneTimeDocument', {
      token: guest.token,
      params: { documentId: notTheirs },
    });
    expect(hidden.status).toBe(404);
    const file = await app.api.call('downloadOneTimeDocument', {
      token: guest.token,
      params: { documentId: withRead },
    });
    expect(file.status).toBe(200);

    // Another party's task of the guest's own document is not theirs to run.
    const others = await guestCall('approveOneTimeTask', guest.token, reads[0]!.id);
    expect([others.status, others.body.errors[0].code]).toEqual([403, 'TASK_NOT_ASSIGNED_TO_YOU']);
    expect((await step(app, w.userA1.token, 'approveTask', reads[0]!.id)).status).toBe(200);
    const read = await guestCall('readOneTimeTask', guest.token, reads[1]!.id);
    expect(read.status).toBe(200);
    expect(read.body.data.attributes.status).toBe('completed');
    expect(read.body.data.attributes.completedBy).toEqual({ id: guest.oneTimeUserId, name: guest.name });
    const readRow = await knex()('tasks').where({ id: reads[1]!.id }).first();
    expect([readRow.completed_by, readRow.completed_by_one_time_user_id]).toEqual([null, guest.oneTimeUserId]);

    const early = await guestCall('approveOneTimeTask', guest.token, approvals[1]!.id);
    expect([early.status, early.body.errors[0].code]).toEqual([409, 'TASK_NOT_EXECUTABLE']);
    expect((await step(app, w.userA1.token, 'approveTask', approvals[0]!.id)).status).toBe(200);
    const blank = await guestCall('remandOneTimeDocument', guest.token, approvals[1]!.id, { reason: '  ' });
    expect([blank.status, blank.body.errors[0].code]).toEqual([422, 'TASK_REASON_REQUIRED']);
    const remand = await guestCall('remandOneTimeDocument', guest.token, approvals[1]!.id, {
      reason: '金額が違います',
    });
    expect(remand.status).toBe(200);
    expect(remand.body.meta.document).toMatchObject({ status: 'remanded', currentOrder: 1 });
    const event = await knex()('document_events').where({ document_id: withApproval, kind: 'remanded' }).first();
    expect([event.actor_user_id, event.actor_one_time_user_id, event.reason]).toEqual([
      null,
      guest.oneTimeUserId,
      '金額が違います',
    ]);
    const logged = await knex()('operation_logs')
      .where({ action: 'document.remanded', target_id: withApproval })
      .first();
    expect(logged.actor_user_id).toBeNull();
    const detail = await app.api.call('getDocument', { token: w.ownerA.token, params: { documentId: withApproval } });
    const remanded = detail.body.data.attributes.events.find((e: any) => e.kind === 'remanded');
    expect(remanded.actorName).toBe(guest.name);
    expect(logged.details).toMatchObject({ oneTimeUserId: guest.oneTimeUserId, oneTimeUserEmail: guest.email });

    expect((await step(app, w.userA1.token, 'approveTask', approvals[0]!.id)).status).toBe(200);
    const approved = await guestCall('approveOneTimeTask', guest.token, approvals[1]!.id, { comment: '承認します' });
    expect(approved.status).toBe(200);
    expect(approved.body.meta.document.status).toBe('completed');
    const completed = await flowOf(guest.token, w.flowId);
    expect(completed.body.data.attributes.documents[0]).toMatchObject({ status: 'completed', downloadable: true });
  });

  it('a guest of flow X gets 404 on flow Y of the same workspace, even with tasks of their own there', async () => {
    const w = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId);
    const flowY = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, { createdBy: w.ownerA.ownerId });
    await inviteGuest(app, w.ownerA.token, flowY, guest.name, guest.email); // the same one-time user, invited to Y
    const documentY = await newDocument(app, w.ownerA.token, flowY);
    const [taskY] = await plan(app, w.ownerA.token, documentY, [
      guestTask(1, 'approve', guest.oneTimeUserId),
      groupTask(2, 'approve', w.g1),
    ]);
    expect((await flowOf(guest.token, flowY)).status).toBe(404);
    const file = await app.api.call('downloadOneTimeDocument', {
      token: guest.token,
      params: { documentId: documentY },
    });
    expect(file.status).toBe(404);
    expect((await guestCall('approveOneTimeTask', guest.token, taskY!.id)).status).toBe(404);
    expect((await guestCall('signOneTimeTask', guest.token, taskY!.id)).status).toBe(404);
    const missing = await guestCall('readOneTimeTask', guest.token, '00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect((await knex()('tasks').where({ id: taskY!.id }).first()).status).toBe('active');
  });
});

describe('a guest signs', () => {
  async function signWorld() {
    const w: TaskWorld = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId, { name: 'Guest Signer' });
    const signTask = async (extra: Record<string, unknown>) => {
      const documentId = await newDocument(app, w.ownerA.token, w.flowId);
      const tasks = await plan(app, w.ownerA.token, documentId, [
        guestTask(1, 'sign', guest.oneTimeUserId, extra),
        groupTask(2, 'approve', w.g1),
      ]);
      return { documentId, taskId: tasks[0]!.id };
    };
    return { w, guest, signTask };
  }

  it('handwritten and with an inline seal image: pdfsig validates, the ledger records the guest and verifies', async () => {
    const { w, guest, signTask } = await signWorld();
    // A member's signature first: the ledger row written the old way must still verify beside the guest's rows.
    await confirmEmailOf(app, w.userA1.id);
    const memberDocument = await newDocument(app, w.ownerA.token, w.flowId);
    const [memberTask] = await plan(app, w.ownerA.token, memberDocument, [groupTask(1, 'sign', w.g1)]);
    expect((await signTaskCall(app, w.userA1.token, memberTask!.id)).status).toBe(200);
    const cases: [string, Record<string, unknown>][] = [
      ['handwritten', { kind: 'handwritten', ...at, image: pngUrl(80) }],
      ['seal-image', { kind: 'seal', ...at, image: pngUrl(60) }],
    ];
    for (const [signatureType, placement] of cases) {
      const { documentId, taskId } = await signTask({ signatureType });
      const signed = await guestCall('signOneTimeTask', guest.token, taskId, { placements: [placement] });
      expect(signed.status, signatureType).toBe(200);
      expect(signed.body.meta.document.currentOrder).toBe(2);
      const pdf = await latestPdf(app, documentId);
      const checked = pdfsig(pdf);
      expect(checked.validations, signatureType).toEqual(['Signature is Valid.']);
      expect(checked.types).toEqual(['ETSI.CAdES.detached']);
      // qpdf reads whom the signature names: the guest, with the address they proved.
      const [dictionary] = signatureDictionaries(pdf);
      expect(dictionary).toMatchObject({ name: 'Guest Signer' });
      expect(dictionary!.reason).toContain(guest.email);
      const report = await app.api.call('getDocumentSignatures', { token: w.ownerA.token, params: { documentId } });
      expect(report.body.data.attributes.signatures.map((s: any) => s.signerName)).toEqual(['Guest Signer']);
      const [record] = await knex()('sign_records').where({ document_id: documentId });
      expect(record).toMatchObject({
        signer_user_id: null,
        signer_name: 'Guest Signer',
        signer_email: guest.email,
        signer_one_time_user_id: guest.oneTimeUserId,
        signature_type: signatureType,
      });
    }
    expect((await verifySignRecords(knex(), w.ownerA.organizationId)).firstBad).toBeNull();
    const verified = await app.api.call('verifySignRecords', { token: w.ownerA.token });
    expect(verified.body.data.attributes.valid).toBe(true);
    const usage = await knex()('usage_counters').where({
      organization_id: w.ownerA.organizationId,
      metric: 'signatures',
    });
    expect(usage[0]?.count).toBe(3);
    const memberRecord = await knex()('sign_records').where({ document_id: memberDocument }).first();
    expect([memberRecord.signer_user_id, memberRecord.signer_email]).toEqual([w.userA1.id, null]);

    const today = new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10);
    const response = await fetch(`${app.url}/core/v1/sign-records/download?from=${today}&to=${today}`, {
      headers: { authorization: `Bearer ${w.ownerA.token}` },
    });
    const csv = Buffer.from(await response.arrayBuffer()).toString('utf8');
    app.api.check('downloadSignRecords', response.status, response.headers.get('content-type'), csv);
    expect(csv).toContain(guest.email);
    expect(csv.split('\n')[0]).toContain('signer_one_time_user_id');
    expect(verifyCsv(csv.replace(/^\uFEFF/, '')).firstBad).toBeNull();
  });

  it('with an e-mail code; wrong codes are counted on the guest and lock them after 5', async () => {
    const { guest, signTask } = await signWorld();
    const { documentId, taskId } = await signTask({ signatureType: 'operator', twoFactor: 'email' });
    const requestCode = () => app.api.call('requestOneTimeSigningCode', { token: guest.token, params: { taskId } });
    const started = Date.now();
    const sent = await requestCode();
    expect(sent.status).toBe(202);
    expect(sent.body.data.attributes).toMatchObject({ channel: 'email' });
    const code = await signingCode(app, guest.email, started - 1000);
    const wrong = code === '000000' ? '111111' : '000000';

    const refused = await guestCall('signOneTimeTask', guest.token, taskId, { code: wrong });
    expect([refused.status, refused.body.errors[0].code]).toEqual([422, 'SIGNING_CODE_INVALID']);
    expect(await knex()('document_versions').where({ document_id: documentId })).toHaveLength(1);
    expect(await knex()('sign_records').where({ document_id: documentId })).toHaveLength(0);
    expect((await knex()('tasks').where({ id: taskId }).first()).status).toBe('active');

    const signed = await guestCall('signOneTimeTask', guest.token, taskId, { code });
    expect(signed.status).toBe(200);
    expect(pdfsig(await latestPdf(app, documentId)).validations).toEqual(['Signature is Valid.']);

    const second = await signTask({ signatureType: 'operator', twoFactor: 'email' });
    expect(
      (await app.api.call('requestOneTimeSigningCode', { token: guest.token, params: { taskId: second.taskId } }))
        .status,
    ).toBe(202);
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const result = await guestCall('signOneTimeTask', guest.token, second.taskId, { code: wrong });
      answers.push(`${result.status} ${result.body.errors[0].code}`);
    }
    expect(answers).toEqual([
      ...Array(4).fill('422 SIGNING_CODE_INVALID'),
      '429 SIGNING_CODE_LOCKED',
      '429 SIGNING_CODE_LOCKED',
    ]);
    const row = await knex()('one_time_users').where({ id: guest.oneTimeUserId }).first();
    expect(new Date(row.code_locked_until).getTime()).toBeGreaterThan(Date.now() + 14 * 60_000);
    expect(await knex()('sign_records').where({ document_id: second.documentId })).toHaveLength(0);
  });

  it("completes the owner's flow when the guest's signature was the last task", async () => {
    const w = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'sign', guest.oneTimeUserId, { signatureType: 'operator' }),
    ]);
    expect((await step(app, w.userA1.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    const signed = await guestCall('signOneTimeTask', guest.token, tasks[1]!.id);
    expect(signed.status).toBe(200);
    expect((await documentRow(app, documentId)).status).toBe('completed');
    expect(await taskStatuses(app, documentId)).toEqual(['1:completed', '2:completed']);
    expect((await knex()('business_flows').where({ id: w.flowId }).first()).status).toBe('complete');
    const file = await app.api.call('downloadOneTimeDocument', { token: guest.token, params: { documentId } });
    expect(file.status).toBe(200);
  });

  it('a failing TSA stores nothing: no version, no ledger row, no completed task', async () => {
    const broken = await startApp({
      plugins: plugins(),
      env: { TSA_URL: 'http://127.0.0.1:9/tsa', TSA_TIMEOUT_MS: '2000' },
    });
    try {
      const w = await seedTaskWorld(broken);
      const guest = await signedInGuest(broken, w.ownerA.token, w.flowId);
      const documentId = await newDocument(broken, w.ownerA.token, w.flowId);
      const [task] = await plan(broken, w.ownerA.token, documentId, [
        guestTask(1, 'sign', guest.oneTimeUserId, { signatureType: 'operator' }),
        groupTask(2, 'approve', w.g1),
      ]);
      const result = await broken.api.call('signOneTimeTask', {
        token: guest.token,
        params: { taskId: task!.id },
        body: { data: { type: 'TaskSignature', attributes: {} } },
      });
      expect([result.status, result.body.errors[0].code]).toEqual([503, 'TSA_UNAVAILABLE']);
      const db = broken.service.deps.knex;
      expect(await db('document_versions').where({ document_id: documentId })).toHaveLength(1);
      expect(await db('sign_records').where({ document_id: documentId })).toHaveLength(0);
      expect((await db('tasks').where({ id: task!.id }).first()).status).toBe('active');
    } finally {
      await broken.close();
    }
  });
});

describe('assigning tasks to a one-time user', () => {
  it('accepts only participants, no role, no e-certificate type and no SMS code', async () => {
    const w = await seedTaskWorld(app);
    const invited = await inviteGuest(app, w.ownerA.token, w.flowId, 'Guest', `g-${Math.random()}@example.com`);
    const oneTimeUserId = invited.attributes.oneTimeUserId;
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const refused = async (task: unknown) => {
      const result = await putPlan(app, w.ownerA.token, documentId, [groupTask(1, 'approve', w.g1), task as never]);
      expect(result.status).toBe(422);
      return result.body.errors.map((e: any) => [e.code, e.source.pointer]);
    };
    expect(await refused(guestTask(2, 'sign', oneTimeUserId, { signatureType: 'party' }))).toEqual([
      ['TASK_ASSIGNEE_CANNOT_USE', '/data/attributes/tasks/1/signatureType'],
    ]);
    expect(await refused(guestTask(2, 'sign', oneTimeUserId, { signatureType: 'proxy' }))).toEqual([
      ['TASK_ASSIGNEE_CANNOT_USE', '/data/attributes/tasks/1/signatureType'],
    ]);
    expect(await refused(guestTask(2, 'sign', oneTimeUserId, { signatureType: 'operator', twoFactor: 'sms' }))).toEqual(
      [['TASK_ASSIGNEE_CANNOT_USE', '/data/attributes/tasks/1/twoFactor']],
    );
    expect(await refused(guestTask(2, 'approve', '00000000-0000-4000-8000-000000000000'))).toEqual([
      ['TASK_ASSIGNEE_NOT_PARTICIPANT', '/data/attributes/tasks/1/assignee/oneTimeUserId'],
    ]);
    const roleId = await insertRole(app, w.ownerA.organizationId, ['approve']);
    expect(await refused(guestTask(2, 'approve', oneTimeUserId, { roleId }))).toEqual([
      ['VALIDATION_FAILED', '/data/attributes/tasks/1/roleId'],
    ]);
    const accepted = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'sign', oneTimeUserId, { signatureType: 'operator', twoFactor: 'email' }),
    ]);
    expect(accepted[1]!.attributes).toMatchObject({ signatureType: 'operator', twoFactor: 'email', role: null });
  });

  it('mails the guest a fresh link to the signed documents when the flow completes', async () => {
    const w = await seedTaskWorld(app, { mailNotification: true });
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'approve', guest.oneTimeUserId),
    ]);
    expect((await step(app, w.userA1.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    expect((await guestCall('approveOneTimeTask', guest.token, tasks[1]!.id)).status).toBe(200);
    const completed = await waitForMail(
      app,
      (m) => recipientOf(m).includes(guest.email) && /が完了しました/.test(m.subject ?? ''),
    );
    expect(completed.text).toMatch(/アクセスコード：[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}/);
    // The completion mail's link is the newest: the task mail's earlier one is dead, this one opens.
    const { token } = linkOf(completed);
    const invitation = await app.api.call('getOneTimeInvitation', { query: { token } });
    expect(invitation.status).toBe(200);
  });

  it('mails the guest a fresh personal link when their task becomes active; a cancelled guest gets nothing', async () => {
    const w = await seedTaskWorld(app, { mailNotification: true });
    const email = `g-${Math.random().toString(36).slice(2)}@example.com`;
    const invited = await inviteGuest(app, w.ownerA.token, w.flowId, 'Guest Mail', email);
    const first = await newestLinkToken(app, email);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'approve', invited.attributes.oneTimeUserId),
    ]);
    const seen = await mailedLinkTokens(app, email);
    expect((await step(app, w.userA1.token, 'approveTask', tasks[0]!.id)).status).toBe(200);
    const fresh = await newestLinkToken(app, email, seen);
    expect(fresh).not.toBe(first);
    const old = await app.api.call('getOneTimeInvitation', { query: { token: first } });
    expect(old.status).toBe(404);
    expect((await app.api.call('getOneTimeInvitation', { query: { token: fresh } })).status).toBe(200);

    const invitation = await knex()('one_time_invitations').where({ id: invited.id }).first();
    const cancelled = await app.api.call('cancelOneTimeInvitation', {
      token: w.ownerA.token,
      params: { invitationId: invited.id },
      body: { data: { type: 'OneTimeInvitation', attributes: { lockVersion: invitation.lock_version } } },
    });
    expect(cancelled.status).toBe(200);
    const later = await newDocument(app, w.ownerA.token, w.flowId);
    const before = (await readOutbox(app)).filter((m) => recipientOf(m).includes(email)).length;
    const next = await plan(app, w.ownerA.token, later, [
      groupTask(1, 'approve', w.g1),
      guestTask(2, 'approve', invited.attributes.oneTimeUserId),
    ]);
    expect((await step(app, w.userA1.token, 'approveTask', next[0]!.id)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect((await readOutbox(app)).filter((m) => recipientOf(m).includes(email))).toHaveLength(before);
  });
});
