/*
 * The webhooks plugin on PostgreSQL with a receiver inside the test (tests/peers/webhook-receiver.ts): every
 * integration event driven through the real API arrives signed (verified with standardwebhooks' Webhook.verify) with
 * ids and systemLinkIds; retries after a 500 and after a timeout; replay; automatic disabling with the mail to the
 * administrators; secret rotation overlap; the address guard at save and delivery time; the response cap; tenancy
 * (another organization, a partner outside a workspace); the plan gate.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { signIn, signedInOwner, memberToken } from '../../tests/helpers/accounts.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { insertFlow } from '../../tests/helpers/business-flows.ts';
import { recipientOf, waitForMail } from '../../tests/helpers/mail.ts';
import { signedInGuest } from '../../tests/helpers/one-time-guests.ts';
import { confirmEmailOf, signTaskCall } from '../../tests/helpers/signing.ts';
import {
  documentLockVersion,
  groupTask,
  newDocument,
  partnerTask,
  plan,
  seedTaskWorld,
  step,
  type TaskWorld,
} from '../../tests/helpers/tasks.ts';
import { seedWorkspace } from '../../tests/helpers/workspaces.ts';
import { WebhookReceiver } from '../../tests/peers/webhook-receiver.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { sendAttempt } from './send.ts';

vi.setConfig({ testTimeout: 120_000 });

const PLUGINS = BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));
const errorOf = (response: { status: number; body: any }) => [response.status, response.body?.errors?.[0]?.code];
const HOUR = 3_600_000;

let app: TestApp;
let receiver: WebhookReceiver;
let w: TaskWorld;
let tokenB: string;

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  app = await startApp({
    env: {
      KEIYAKU_PUBLIC_URL: 'https://keiyaku.test',
      // The receiver listens on 127.0.0.1 over http: the operator's allowances a test needs, and no more.
      KEIYAKU_PLUGIN_WEBHOOKS_ALLOW_HTTP: 'true',
      KEIYAKU_PLUGIN_WEBHOOKS_ALLOWED_CIDRS: '127.0.0.1/32',
      KEIYAKU_PLUGIN_WEBHOOKS_RETRY_SCHEDULE_SECONDS: '1,2',
      KEIYAKU_PLUGIN_WEBHOOKS_TIMEOUT_SECONDS: '1',
      KEIYAKU_PLUGIN_WEBHOOKS_MAX_RESPONSE_BYTES: '4096',
    },
    plugins: PLUGINS,
  });
  w = await seedTaskWorld(app, { plan: 'standard' });
  // B (a public partner of A's workspace) on a plan with webhooks: signed in again so its token carries it.
  await app.service.deps.knex('organizations').where({ id: w.ownerB.organizationId }).update({ plan: 'standard' });
  tokenB = (await signIn(app, w.ownerB.loginId, w.ownerB.password)).authorizationToken;
});
afterAll(async () => {
  await app?.close();
  await receiver?.close();
});

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ALL_TYPES = [
  'task.assigned',
  'task.executed',
  'document.remanded',
  'document.cancelled',
  'document.completed',
  'business_flow.completed',
  'business_flow.cancelled',
  'signature.created',
  'invitation.accepted',
];

async function createEndpoint(token: string, url: string, eventTypes = ALL_TYPES, description = 'ERP') {
  return app.api.call('createWebhookEndpoint', {
    token,
    body: { data: { type: 'WebhookEndpoint', attributes: { url, eventTypes, description } } },
  });
}

async function endpoint(token: string, url: string, eventTypes = ALL_TYPES) {
  const created = await createEndpoint(token, url, eventTypes);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.id as string, secret: created.body.meta.secret as string, body: created.body };
}

const attempts = async (token: string, endpointId: string) => {
  const list = await app.api.call('listWebhookDeliveryAttempts', {
    token,
    params: { endpointId },
    query: { 'page[size]': 100 },
  });
  expect(list.status, JSON.stringify(list.body)).toBe(200);
  return (list.body.data as { id: string; attributes: Record<string, any> }[]).map((a) => a.attributes);
};

const sendTest = (token: string, endpointId: string) =>
  app.api.call('sendWebhookTest', { token, params: { endpointId } });

/** The parsed payloads received at `path` whose signature `secret` verifies. */
/** Moves the service clock on; access tokens expire with it, so the test's administrators sign in again. */
async function advanceClock(ms: number) {
  app.clock.advance(ms);
  w.ownerA.token = (await signIn(app, w.ownerA.loginId, w.ownerA.password)).authorizationToken;
  tokenB = (await signIn(app, w.ownerB.loginId, w.ownerB.password)).authorizationToken;
}

function verified(path: string, secret: string) {
  return receiver.to(path).map((r) => new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as any);
}

describe('webhooks plugin', () => {
  it('delivers every integration event, signed, with ids and systemLinkIds; a partner only of flows it sees', async () => {
    const { knex } = app.service.deps;
    await knex('workspaces').where({ id: w.workspaceId }).update({ system_link_id: 'WS-001' });
    await knex('business_flows').where({ id: w.flowId }).update({ system_link_id: 'FLOW-001' });
    const a = await endpoint(w.ownerA.token, receiver.script('/events-a', [200]));
    const b = await endpoint(tokenB, receiver.script('/events-b', [200]));

    // Sign, then approve: assigned, signature, executed, completed; then the flow completed by hand.
    const d1 = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '売買契約書');
    await knex('documents').where({ id: d1 }).update({ system_link_id: 'DOC-001' });
    const [signTask, approveTask] = await plan(app, w.ownerA.token, d1, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator' }),
      groupTask(2, 'approve', w.g1),
    ]);
    await confirmEmailOf(app, w.ownerA.ownerId);
    const signed = await signTaskCall(app, w.ownerA.token, signTask!.id);
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect((await step(app, w.ownerA.token, 'approveTask', approveTask!.id)).status).toBe(200);

    // Approve, then remand from order 2 to 1, then cancel the document.
    const d2 = await newDocument(app, w.ownerA.token, w.flowId, 'clean', '覚書');
    const [first, second] = await plan(app, w.ownerA.token, d2, [
      groupTask(1, 'approve', w.g1),
      groupTask(2, 'approve', w.g1),
    ]);
    expect((await step(app, w.ownerA.token, 'approveTask', first!.id)).status).toBe(200);
    const remanded = await step(app, w.ownerA.token, 'remandDocument', second!.id, {
      toOrder: 1,
      reason: '金額の誤り',
    });
    expect(remanded.status, JSON.stringify(remanded.body)).toBe(200);
    const cancelled = await app.api.call('cancelDocument', {
      token: w.ownerA.token,
      params: { documentId: d2 },
      body: {
        data: {
          type: 'DocumentCancel',
          attributes: { lockVersion: await documentLockVersion(app, d2), reason: '不要' },
        },
      },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const flow = await knex('business_flows').where({ id: w.flowId }).first('lock_version', 'status');
    if (flow.status !== 'complete') {
      const completed = await app.api.call('completeBusinessFlow', {
        token: w.ownerA.token,
        params: { businessFlowId: w.flowId },
        body: { data: { type: 'BusinessFlow', attributes: { lockVersion: flow.lock_version } } },
      });
      expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    }

    // Another flow, cancelled; a guest accepting an invitation to it.
    const flow2 = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, {
      name: '解約フロー',
      createdBy: w.ownerA.ownerId,
    });
    await signedInGuest(app, w.ownerA.token, flow2);
    const cancelFlow = await app.api.call('cancelBusinessFlow', {
      token: w.ownerA.token,
      params: { businessFlowId: flow2 },
      body: { data: { type: 'BusinessFlow', attributes: { lockVersion: 0, comment: '取引中止' } } },
    });
    expect(cancelFlow.status, JSON.stringify(cancelFlow.body)).toBe(200);

    // A flow in a workspace B does not take part in: A hears of it, B does not.
    const hidden = await seedWorkspace(app, w.ownerA.organizationId, [{ groupId: w.g1, isEditable: true }], {
      name: 'Internal',
    });
    const flow3 = await insertFlow(app, w.ownerA.organizationId, hidden, { name: '社内稟議' });
    const d3 = await newDocument(app, w.ownerA.token, flow3, 'clean', '稟議書');
    const [internal] = await plan(app, w.ownerA.token, d3, [groupTask(1, 'approve', w.g1)]);
    expect((await step(app, w.ownerA.token, 'approveTask', internal!.id)).status).toBe(200);
    // A document cancelled from its task (the counterparty declines) is told as document.cancelled too.
    const d4 = await newDocument(app, w.ownerA.token, flow3, 'clean', '辞退された契約書');
    const [declined] = await plan(app, w.ownerA.token, d4, [groupTask(1, 'approve', w.g1)]);
    const declinedStep = await step(app, w.ownerA.token, 'cancelTask', declined!.id, { reason: '辞退' });
    expect(declinedStep.status, JSON.stringify(declinedStep.body)).toBe(200);

    const seen = () => new Set(verified('/events-a', a.secret).map((e) => e.type));
    await waitFor('every event type at A', async () => ALL_TYPES.every((t) => seen().has(t)));
    const expected = [signTask!.id, approveTask!.id, first!.id, internal!.id];
    await waitFor('every task executed at A', async () => {
      const done = verified('/events-a', a.secret).filter((e) => e.type === 'task.executed');
      return expected.every((id) => done.some((e) => e.data.task.id === id));
    });
    // Two documents were cancelled (one from the document, one from its task): both are told, in any order.
    await waitFor('both cancelled documents at A', async () => {
      const told = verified('/events-a', a.secret).filter((e) => e.type === 'document.cancelled');
      return [d2, d4].every((id) => told.some((e) => e.data.document.id === id));
    });
    // Two flows complete (the first; the internal one, its documents approved and declined), in either order.
    await waitFor('both completed flows at A', async () => {
      const told = verified('/events-a', a.secret).filter((e) => e.type === 'business_flow.completed');
      return [w.flowId, flow3].every((id) => told.some((e) => e.data.businessFlow.id === id));
    });
    const events = verified('/events-a', a.secret);
    for (const event of events) expect(event.organizationId).toBe(w.ownerA.organizationId);

    const signature = events.find((e) => e.type === 'signature.created');
    expect(signature.data).toMatchObject({
      workspace: { id: w.workspaceId, systemLinkId: 'WS-001' },
      businessFlow: { id: w.flowId, systemLinkId: 'FLOW-001', name: '売買契約 2026' },
      document: { id: d1, systemLinkId: 'DOC-001', name: '売買契約書' },
      task: { id: signTask!.id, type: 'sign', order: 1 },
      signatureType: 'operator',
    });
    expect(events.find((e) => e.type === 'document.completed' && e.data.document.id === d1)).toBeTruthy();
    expect(events.find((e) => e.type === 'document.remanded').data).toMatchObject({
      document: { id: d2 },
      fromOrder: 2,
      toOrder: 1,
    });
    expect(events.some((e) => e.type === 'document.cancelled' && e.data.document.id === d2)).toBe(true);
    const fromTask = verified('/events-a', a.secret).find(
      (e) => e.type === 'document.cancelled' && e.data.document.id === d4,
    );
    expect(fromTask.data).toMatchObject({ before: 'in_progress', task: { id: declined!.id, type: 'approve' } });
    expect(
      events.find((e) => e.type === 'business_flow.completed' && e.data.businessFlow.id === w.flowId).data,
    ).toMatchObject({
      workspace: { id: w.workspaceId, systemLinkId: 'WS-001' },
      businessFlow: { systemLinkId: 'FLOW-001', name: '売買契約 2026' },
    });
    expect(events.find((e) => e.type === 'business_flow.cancelled').data.businessFlow.id).toBe(flow2);
    expect(events.find((e) => e.type === 'invitation.accepted').data).toMatchObject({
      kind: 'one_time',
      businessFlow: { id: flow2 },
    });
    const executed = events.filter((e) => e.type === 'task.executed').map((e) => e.data.task.id);
    expect(executed).toEqual(expect.arrayContaining([signTask!.id, approveTask!.id, first!.id, internal!.id]));
    const assigned = events.filter((e) => e.type === 'task.assigned').map((e) => e.data.task.id);
    expect(assigned).toEqual(expect.arrayContaining([signTask!.id, approveTask!.id]));
    // No personal data: neither the remand reason nor the guest's address travels.
    expect(receiver.to('/events-a').some((r) => /金額の誤り|@example\.com/.test(r.body))).toBe(false);
    // The same event id is one webhook-id; every message id is unique.
    const ids = receiver.to('/events-a').map((r) => r.headers['webhook-id']);
    expect(new Set(ids).size).toBe(ids.length);

    // B, a public partner of the first workspace, hears of its flows, never of the internal one.
    await waitFor('B hearing of the completion', async () =>
      verified('/events-b', b.secret).some((e) => e.type === 'document.completed' && e.data.document.id === d1),
    );
    const heardByB = verified('/events-b', b.secret);
    expect(heardByB.every((e) => e.organizationId === w.ownerB.organizationId)).toBe(true);
    expect(heardByB.some((e) => e.data.businessFlow?.id === flow3)).toBe(false);
    // A's secret does not verify what B received, nor the other way round.
    expect(() => verified('/events-b', a.secret)).toThrow();
  });

  it('tells a partner that is not a public participant only of the flows holding a task of its own', async () => {
    const b = await endpoint(tokenB, receiver.script('/private-b', [200]), ['task.assigned', 'document.completed']);
    const workspace = await seedWorkspace(
      app,
      w.ownerA.organizationId,
      [
        { groupId: w.g1, isEditable: true },
        { partnerOrganizationId: w.ownerB.organizationId, isPublic: false },
      ],
      { name: 'Private deals' },
    );
    const withTask = await insertFlow(app, w.ownerA.organizationId, workspace, { name: 'B担当' });
    const withoutTask = await insertFlow(app, w.ownerA.organizationId, workspace, { name: 'A社内' });
    const shared = await newDocument(app, w.ownerA.token, withTask, 'clean', '発注書');
    const [ownFirst, partnerStep] = await plan(app, w.ownerA.token, shared, [
      groupTask(1, 'approve', w.g1),
      partnerTask(2, 'approve', w.ownerB.organizationId),
    ]);
    expect((await step(app, w.ownerA.token, 'approveTask', ownFirst!.id)).status).toBe(200);
    const internal = await newDocument(app, w.ownerA.token, withoutTask, 'clean', '社内メモ');
    const [ownStep] = await plan(app, w.ownerA.token, internal, [groupTask(1, 'approve', w.g1)]);
    expect((await step(app, w.ownerA.token, 'approveTask', ownStep!.id)).status).toBe(200);
    expect((await step(app, tokenB, 'approveTask', partnerStep!.id)).status).toBe(200);
    // Deliveries run in parallel: their order is not the events' order.
    await waitFor('B hearing of its task and document', async () => {
      const got = verified('/private-b', b.secret);
      return (
        got.some((e) => e.type === 'document.completed' && e.data.document.id === shared) &&
        got.some((e) => e.type === 'task.assigned' && e.data.task.id === partnerStep!.id)
      );
    });
    // The internal flow's events were queued before B's: had B heard of them, they would be here by now.
    const heard = verified('/private-b', b.secret);
    expect(heard.some((e) => e.data.task?.id === partnerStep!.id && e.type === 'task.assigned')).toBe(true);
    expect(heard.some((e) => e.data.businessFlow.id === withoutTask)).toBe(false);
  });

  it('tells an accepted workspace invitation to the owner and the organization that joined', async () => {
    const a = await endpoint(w.ownerA.token, receiver.script('/invitations-a', [200]), ['invitation.accepted']);
    const c = await signedInOwner(app, { organizationName: '株式会社C', plan: 'standard' });
    const cEndpoint = await endpoint(c.token, receiver.script('/invitations-c', [200]), ['invitation.accepted']);
    const invited = await app.api.call('invitePartnerOrganization', {
      token: w.ownerA.token,
      params: { workspaceId: w.workspaceId },
      body: {
        data: {
          type: 'WorkspaceInvitation',
          attributes: { email: c.email ?? 'c@example.com', isPublic: false, isEditable: false },
        },
      },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    const pattern = /\/workspaces\/([0-9a-f-]+)\/join\?invitation=([A-Za-z0-9_-]+)/;
    const mail = await waitForMail(app, (m) => pattern.test(m.text ?? '') && m.text!.includes(w.workspaceId));
    const token = pattern.exec(mail.text ?? '')![2]!;
    const accepted = await app.api.call('acceptWorkspaceInvitation', {
      token: c.token,
      body: { data: { type: 'WorkspaceInvitationAcceptance', attributes: { token } } },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBeLessThan(300);
    await waitFor(
      'both told',
      async () => receiver.to('/invitations-a').length > 0 && receiver.to('/invitations-c').length > 0,
    );
    const [toA] = verified('/invitations-a', a.secret);
    const [toC] = verified('/invitations-c', cEndpoint.secret);
    expect(toA.data).toMatchObject({
      kind: 'workspace',
      workspace: { id: w.workspaceId, systemLinkId: 'WS-001' },
      partnerOrganizationId: c.organizationId,
    });
    expect([toA.id, toC.organizationId]).toEqual([toC.id, c.organizationId]);
  });

  it('retries after a 500 and after a timeout, with back-off, and logs each attempt', async () => {
    const url = receiver.script('/flaky', [500, 'stall', 200]);
    const e = await endpoint(w.ownerA.token, url);
    expect((await sendTest(w.ownerA.token, e.id)).status).toBe(202);
    // sendWebhookTest is one attempt: retries belong to events; make one through the API.
    await waitFor('the test attempt', async () => (await attempts(w.ownerA.token, e.id)).length === 1);
    const [test] = await attempts(w.ownerA.token, e.id);
    expect(test).toMatchObject({
      eventType: 'webhook.test',
      attempt: 1,
      trigger: 'test',
      outcome: 'http_error',
      statusCode: 500,
    });

    const d = await newDocument(app, w.ownerA.token, w.flowId, 'clean', 'リトライ');
    receiver.script('/flaky', [500, 'stall', 200]);
    await app.api.call('updateWebhookEndpoint', {
      token: w.ownerA.token,
      params: { endpointId: e.id },
      body: { data: { type: 'WebhookEndpoint', attributes: { eventTypes: ['task.assigned'], lockVersion: 0 } } },
    });
    await plan(app, w.ownerA.token, d, [groupTask(1, 'approve', w.g1)]);
    const log = await waitFor('three attempts of the event', async () => {
      const rows = (await attempts(w.ownerA.token, e.id)).filter((a) => a.eventType === 'task.assigned');
      return rows.length === 3 && rows;
    });
    const ordered = [...log].reverse();
    expect(ordered.map((a) => [a.attempt, a.trigger, a.outcome, a.statusCode])).toEqual([
      [1, 'scheduled', 'http_error', 500],
      [2, 'scheduled', 'timeout', null],
      [3, 'scheduled', 'success', 200],
    ]);
    expect(ordered[1]!.durationMs).toBeGreaterThanOrEqual(900);
    expect(ordered[2]!.deliveryStatus).toBe('succeeded');
    // The waits of the schedule (1 s, then 2 s) lie between the receiver's arrivals, on top of the 1 s timeout.
    const arrivals = receiver
      .to('/flaky')
      .slice(-3)
      .map((r) => r.at);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(900);
    expect(arrivals[2]! - arrivals[1]!).toBeGreaterThanOrEqual(2_900);
    // Each retry repeats the same message: one webhook-id, one body.
    const retried = receiver.to('/flaky').slice(-3);
    expect(new Set(retried.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(retried.map((r) => r.body)).size).toBe(1);
  });

  it('replays a delivery with the same payload and webhook-id, signed afresh', async () => {
    const e = await endpoint(w.ownerA.token, receiver.script('/replay', [200]));
    await sendTest(w.ownerA.token, e.id);
    const [done] = await waitFor('the test delivery', async () => {
      const rows = await attempts(w.ownerA.token, e.id);
      return rows.length === 1 && rows;
    });
    const replayed = await app.api.call('replayWebhookDelivery', {
      token: w.ownerA.token,
      params: { deliveryId: done!.deliveryId },
    });
    expect(replayed.status, JSON.stringify(replayed.body)).toBe(202);
    const rows = await waitFor('the replay', async () => {
      const list = await attempts(w.ownerA.token, e.id);
      return list.length === 2 && list;
    });
    expect(rows[0]).toMatchObject({ attempt: 2, trigger: 'replay', outcome: 'success', deliveryId: done!.deliveryId });
    const [original, again] = receiver.to('/replay');
    expect(again!.headers['webhook-id']).toBe(original!.headers['webhook-id']);
    expect(again!.body).toBe(original!.body);
    expect(verified('/replay', e.secret)).toHaveLength(2);
  });

  it('rotates the secret: both secrets verify during the overlap, only the new one after it', async () => {
    const e = await endpoint(w.ownerA.token, receiver.script('/rotation', [200]));
    const rotated = await app.api.call('rotateWebhookSecret', { token: w.ownerA.token, params: { endpointId: e.id } });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const fresh = rotated.body.meta.secret as string;
    expect(fresh).toMatch(/^whsec_/);
    expect(fresh).not.toBe(e.secret);
    expect(rotated.body.data.attributes.previousSecretExpiresAt).not.toBeNull();
    // Never shown again, never stored in clear.
    const read = await app.api.call('getWebhookEndpoint', { token: w.ownerA.token, params: { endpointId: e.id } });
    expect(JSON.stringify(read.body)).not.toContain('whsec_');
    const row = await app.service.deps.knex('webhook_endpoints').where({ id: e.id }).first();
    expect(Buffer.from(row.secret_sealed).toString('latin1')).not.toContain(fresh.slice(6, 20));

    await sendTest(w.ownerA.token, e.id);
    await waitFor('the overlap delivery', async () => receiver.to('/rotation').length === 1);
    const [during] = receiver.to('/rotation');
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verified('/rotation', fresh)).toHaveLength(1);
    expect(verified('/rotation', e.secret)).toHaveLength(1);

    await advanceClock(25 * HOUR);
    await sendTest(w.ownerA.token, e.id);
    await waitFor('the delivery after the overlap', async () => receiver.to('/rotation').length === 2);
    const after = receiver.to('/rotation')[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(fresh).verify(after.body, after.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(e.secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
  });

  it('disables an endpoint failing for 24 hours, mails the administrators, and an admin enables it again', async () => {
    const e = await endpoint(w.ownerA.token, receiver.script('/down', [503]));
    await sendTest(w.ownerA.token, e.id);
    await waitFor('the first failure', async () => (await attempts(w.ownerA.token, e.id)).length === 1);
    const failing = await app.api.call('getWebhookEndpoint', { token: w.ownerA.token, params: { endpointId: e.id } });
    expect(failing.body.data.attributes).toMatchObject({ enabled: true, disabledReason: null });
    expect(failing.body.data.attributes.failingSince).not.toBeNull();

    await advanceClock(24 * HOUR + 60_000);
    await sendTest(w.ownerA.token, e.id);
    const disabled = await waitFor('the endpoint disabled', async () => {
      const read = await app.api.call('getWebhookEndpoint', { token: w.ownerA.token, params: { endpointId: e.id } });
      return read.body.data.attributes.enabled === false && read.body.data.attributes;
    });
    expect(disabled.disabledReason).toBe('automatic');
    const mail = await waitForMail(
      app,
      (m) =>
        recipientOf(m).includes(w.ownerA.email) && /Webhook/.test(m.subject ?? '') && (m.text ?? '').includes('/down'),
    );
    expect(mail.text).toContain('https://keiyaku.test/organizations/settings/webhooks');
    const logged = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: w.ownerA.organizationId, action: 'webhook.endpoint_auto_disabled', target_id: e.id })
      .first();
    expect(logged).toBeTruthy();
    expect(errorOf(await sendTest(w.ownerA.token, e.id))).toEqual([409, 'WEBHOOK_ENDPOINT_DISABLED']);

    receiver.script('/down', [200]);
    const enabled = await app.api.call('updateWebhookEndpoint', {
      token: w.ownerA.token,
      params: { endpointId: e.id },
      body: { data: { type: 'WebhookEndpoint', attributes: { enabled: true, lockVersion: disabled.lockVersion } } },
    });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    expect(enabled.body.data.attributes).toMatchObject({ enabled: true, disabledReason: null, failingSince: null });
    expect((await sendTest(w.ownerA.token, e.id)).status).toBe(202);
  });

  it('refuses non-public addresses at save time unless allowed, and blocks them at delivery time', async () => {
    for (const url of [
      'https://10.0.0.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'http://127.0.0.2:8080/',
      'http://[::1]/',
      'http://[::ffff:10.0.0.1]/',
      'http://[fd00::1]/',
      'http://0.0.0.0/',
      'http://224.0.0.1/',
      'http://localhost.invalid/',
    ]) {
      expect(errorOf(await createEndpoint(w.ownerA.token, url)), url).toEqual([422, 'WEBHOOK_URL_FORBIDDEN']);
    }
    for (const url of ['ftp://example.com/', 'https://user:pw@example.com/', 'not a url']) {
      expect(errorOf(await createEndpoint(w.ownerA.token, url)), url).toEqual([422, 'WEBHOOK_URL_INVALID']);
    }
    // The IPv4-mapped form of an allowed address is that address.
    const port = new URL(receiver.url).port;
    const mapped = await createEndpoint(w.ownerA.token, `http://[::ffff:7f00:1]:${port}/mapped`);
    expect(mapped.status).toBe(201);
    await app.api.call('deleteWebhookEndpoint', { token: w.ownerA.token, params: { endpointId: mapped.body.data.id } });

    // A URL that leads elsewhere by the time of delivery (a changed DNS answer, here the row itself) is blocked.
    const e = await endpoint(w.ownerA.token, receiver.script('/guarded', [200]));
    await app.service.deps.knex('webhook_endpoints').where({ id: e.id }).update({ url: 'http://10.0.0.1:9/guarded' });
    await sendTest(w.ownerA.token, e.id);
    const [blocked] = await waitFor('the blocked attempt', async () => {
      const rows = await attempts(w.ownerA.token, e.id);
      return rows.length === 1 && rows;
    });
    expect(blocked).toMatchObject({ outcome: 'ssrf_blocked', statusCode: null });
    // A test event is tried once: its delivery ends failed, not pending for good.
    const testDelivery = await app.service.deps.knex('webhook_deliveries').where({ endpoint_id: e.id }).first();
    expect([testDelivery.status, testDelivery.next_attempt_at]).toEqual(['failed', null]);

    // Without the operator's allowance, even the test receiver on 127.0.0.1 gets nothing.
    const before = receiver.received.length;
    const strict = { allowPrivateNetworks: false, allowedCidrs: [], timeoutMs: 1000, maxResponseBytes: 4096 };
    for (const url of [
      `${receiver.url}/strict`,
      `http://localhost:${port}/strict`,
      `http://[::ffff:127.0.0.1]:${port}/`,
    ]) {
      expect((await sendAttempt(url, {}, '{}', strict)).outcome, url).toBe('ssrf_blocked');
    }
    expect(receiver.received.length).toBe(before);
    // With the allowance it goes through, and never follows a redirect.
    const allowed = { ...strict, allowedCidrs: ['127.0.0.1/32'] };
    receiver.script('/moved', [302]);
    expect(await sendAttempt(`${receiver.url}/moved`, {}, '{}', allowed)).toMatchObject({
      outcome: 'http_error',
      statusCode: 302,
    });
  });

  it('cuts a response over the size cap and records it as too_large', async () => {
    const e = await endpoint(w.ownerA.token, receiver.script('/big', ['big']));
    await sendTest(w.ownerA.token, e.id);
    const [attempt] = await waitFor('the attempt', async () => {
      const rows = await attempts(w.ownerA.token, e.id);
      return rows.length === 1 && rows;
    });
    expect(attempt).toMatchObject({ outcome: 'too_large', statusCode: 200 });
  });

  it('keeps endpoints and deliveries to their organization, for administrators, on plans with webhooks', async () => {
    const e = await endpoint(w.ownerA.token, receiver.script('/tenancy', [200]));
    await sendTest(w.ownerA.token, e.id);
    const [row] = await waitFor('a delivery', async () => {
      const rows = await attempts(w.ownerA.token, e.id);
      return rows.length === 1 && rows;
    });
    const params = { endpointId: e.id };
    expect(errorOf(await app.api.call('getWebhookEndpoint', { token: tokenB, params }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await app.api.call('listWebhookDeliveryAttempts', { token: tokenB, params }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    expect(errorOf(await sendTest(tokenB, e.id))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await app.api.call('rotateWebhookSecret', { token: tokenB, params }))).toEqual([404, 'NOT_FOUND']);
    expect(errorOf(await app.api.call('deleteWebhookEndpoint', { token: tokenB, params }))).toEqual([404, 'NOT_FOUND']);
    const update = { data: { type: 'WebhookEndpoint', attributes: { enabled: false, lockVersion: 0 } } };
    expect(errorOf(await app.api.call('updateWebhookEndpoint', { token: tokenB, params, body: update }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const replay = { deliveryId: row!.deliveryId };
    expect(errorOf(await app.api.call('replayWebhookDelivery', { token: tokenB, params: replay }))).toEqual([
      404,
      'NOT_FOUND',
    ]);
    const listB = await app.api.call('listWebhookEndpoints', { token: tokenB });
    expect(listB.body.data.some((x: { id: string }) => x.id === e.id)).toBe(false);

    // A member who is not an administrator: 403.
    const member = await memberToken(app, w.ownerA.organizationId);
    expect(errorOf(await app.api.call('listWebhookEndpoints', { token: member }))).toEqual([
      403,
      'FUNCTION_NOT_PERMITTED',
    ]);
    // A stale lockVersion: 409.
    const stale = { data: { type: 'WebhookEndpoint', attributes: { description: 'x', lockVersion: 99 } } };
    expect(
      errorOf(await app.api.call('updateWebhookEndpoint', { token: w.ownerA.token, params, body: stale })),
    ).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);
    // A free plan: 403 PLAN_FEATURE_UNAVAILABLE, and its events are not delivered.
    const free = await signedInOwner(app, { organizationName: '無料プラン', plan: 'free' });
    expect(errorOf(await app.api.call('listWebhookEndpoints', { token: free.token }))).toEqual([
      403,
      'PLAN_FEATURE_UNAVAILABLE',
    ]);
    expect(errorOf(await createEndpoint(free.token, `${receiver.url}/free`))).toEqual([
      403,
      'PLAN_FEATURE_UNAVAILABLE',
    ]);
    const types = await app.api.call('listWebhookEventTypes', { token: w.ownerA.token });
    expect(types.body.data.map((t: { id: string }) => t.id)).toEqual(ALL_TYPES);
  });
});
