/*
 * The spec rules the audit found unenforced (issue 16, item 6), one test (or a pair, both sides) per rule, on one
 * app: plan gating (templates standard+, advanced and long-term signatures professional), the role's `view`
 * permission, 409 REGISTERED_BY_ANOTHER_USER on a concurrent create, 409 PERMISSIONS_CHANGED, and e-mail blocking on
 * a permanent delivery failure (SMTP 550 at RCPT, and a DSN fed to POST /mail/bounces).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { signedInOwner, userIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { createGroup } from '../helpers/org-admin.ts';
import { groupTask, newDocument, plan, putPlan } from '../helpers/tasks.ts';
import { seedWorkspace, workspaceBody } from '../helpers/workspaces.ts';
import { SmtpSink } from '../peers/smtp-sink.ts';

const BOUNCE_SECRET = 'bounce-secret-for-the-spec-rules-test';

let app: TestApp;
let sink: SmtpSink;

beforeAll(async () => {
  sink = await SmtpSink.start();
  app = await startApp({
    env: { SMTP_URL: sink.url, KEIYAKU_PLUGIN_MAIL_BOUNCE_SECRET: BOUNCE_SECRET },
    plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
  });
}, 60_000);

afterAll(async () => {
  await app?.close();
  await sink?.stop();
});

const knex = () => app.service.deps.knex;

/** A role of the organization with exactly these permissions per task type. */
async function role(organizationId: string, permissions: Record<string, { execute: boolean; view: boolean }>) {
  const all = { sign: { execute: false, view: false }, approve: { execute: false, view: false }, read: {} };
  const [row] = await knex()('roles')
    .insert({
      organization_id: organizationId,
      name: `role-${Math.random()}`,
      task_permissions: JSON.stringify({ ...all, read: { execute: false, view: false }, ...permissions }),
    })
    .returning('id');
  return row.id as string;
}

/** Waits until an insert into `table` waits on a lock (the request reached its write and blocks on ours). */
async function insertBlockedOn(table: string): Promise<void> {
  await eventually(async () => {
    const { rows } = await knex().raw(
      `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query ILIKE ?`,
      [`insert into "${table}"%`],
    );
    return rows[0].n > 0;
  });
}

/** Polls until `check` holds (the mail job runs shortly after the request), failing after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('plan gating', () => {
  it('refuses document and business-flow templates below the standard plan (403 PLAN_FEATURE_UNAVAILABLE)', async () => {
    const owner = await signedInOwner(app, { organizationName: '無料プラン株式会社' });
    const list = await app.api.call('listDocumentTemplates', { token: owner.token });
    expect(list.status).toBe(403);
    expect(list.body.errors[0]).toMatchObject({
      code: 'PLAN_FEATURE_UNAVAILABLE',
      meta: { params: { feature: 'templates', plan: 'standard', currentPlan: 'free' } },
    });
    const create = await app.api.call('createBusinessFlowTemplate', {
      token: owner.token,
      body: { data: { type: 'BusinessFlowTemplate', attributes: { name: 'x', documents: [] } } },
    });
    expect([create.status, create.body.errors[0].code]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
    const me = await app.api.call('getCurrentUser', { token: owner.token });
    expect(me.body.data.attributes.organization.features).not.toContain('templates');

    await knex()('organizations').where({ id: owner.organizationId }).update({ plan: 'standard' });
    expect((await app.api.call('listDocumentTemplates', { token: owner.token })).status).toBe(200);
    expect((await app.api.call('listBusinessFlowTemplates', { token: owner.token })).status).toBe(200);
    const after = await app.api.call('getCurrentUser', { token: owner.token });
    expect(after.body.data.attributes.organization.features).toEqual(
      expect.arrayContaining(['templates', 'box', 'customProperties']),
    );
    expect(after.body.data.attributes.organization.features).not.toContain('sso');
  });

  it('refuses advanced and long-term signatures in a task plan below professional, and takes them on it', async () => {
    const owner = await signedInOwner(app, { organizationName: '署名プラン株式会社', plan: 'standard' });
    const group = await createGroup(app, owner.token, '法務部');
    const workspaceId = await seedWorkspace(app, owner.organizationId, [{ groupId: group, isEditable: true }]);
    const flowId = await insertFlow(app, owner.organizationId, workspaceId, { createdBy: owner.ownerId });
    const documentId = await newDocument(app, owner.token, flowId);
    for (const [signatureType, feature] of [
      ['advanced', 'advancedSignature'],
      ['long-term', 'longTermSignature'],
    ]) {
      const refused = await putPlan(app, owner.token, documentId, [groupTask(1, 'sign', group, { signatureType })]);
      expect(refused.status).toBe(403);
      expect(refused.body.errors[0]).toMatchObject({
        code: 'PLAN_FEATURE_UNAVAILABLE',
        source: { pointer: '/data/attributes/tasks/0/signatureType' },
        meta: { params: { feature, plan: 'professional', currentPlan: 'standard' } },
      });
    }
    expect(await knex()('tasks').where({ document_id: documentId }).count({ n: '*' })).toEqual([{ n: 0 }]);
    // Operator signatures stay open to every plan.
    await plan(app, owner.token, documentId, [groupTask(1, 'sign', group, { signatureType: 'operator' })]);

    await knex()('organizations').where({ id: owner.organizationId }).update({ plan: 'professional' });
    const secondDocument = await newDocument(app, owner.token, flowId, 'clean', '長期署名の書類');
    const [task] = await plan(app, owner.token, secondDocument, [
      groupTask(1, 'sign', group, { signatureType: 'long-term' }),
    ]);
    expect(task!.attributes.signatureType).toBe('long-term');
  });
});

describe("the role's view permission", () => {
  it('shows a flow through a role-bound task only to group members whose roles may view that task type', async () => {
    const owner = await signedInOwner(app, { organizationName: 'ロール閲覧株式会社' });
    const editors = await createGroup(app, owner.token, '営業部');
    const signers = await createGroup(app, owner.token, '役員室');
    // The signers' group takes part without seeing every flow: it sees flows through its tasks only.
    const workspaceId = await seedWorkspace(app, owner.organizationId, [
      { groupId: editors, isEditable: true },
      { groupId: signers, isPublic: false },
    ]);
    const flowId = await insertFlow(app, owner.organizationId, workspaceId, { name: '役員決裁フロー' });
    const documentId = await newDocument(app, owner.token, flowId);
    const signerRole = await role(owner.organizationId, { sign: { execute: true, view: true } });
    const viewerRole = await role(owner.organizationId, { sign: { execute: false, view: true } });
    const approverRole = await role(owner.organizationId, { approve: { execute: true, view: true } });
    await plan(app, owner.token, documentId, [groupTask(1, 'sign', signers, { roleId: signerRole })]);

    const holder = await userIn(app, owner.organizationId, [signers], [signerRole]);
    const viewer = await userIn(app, owner.organizationId, [signers], [viewerRole]);
    const blind = await userIn(app, owner.organizationId, [signers], [approverRole]);
    const visible = async (token: string) => {
      const flow = await app.api.call('getBusinessFlow', { token, params: { businessFlowId: flowId } });
      const document = await app.api.call('getDocument', { token, params: { documentId } });
      const list = await app.api.call('listBusinessFlows', { token, query: { 'page[size]': 100 } });
      const listed = (list.body.data as { id: string }[]).some((f) => f.id === flowId);
      return [flow.status, document.status, listed];
    };
    expect(await visible(holder.token)).toEqual([200, 200, true]);
    expect(await visible(viewer.token)).toEqual([200, 200, true]);
    expect(await visible(blind.token)).toEqual([404, 404, false]);

    // Granting view on sign tasks to the role shows the flow at once.
    await knex()('roles')
      .where({ id: approverRole })
      .update({
        task_permissions: JSON.stringify({
          sign: { execute: false, view: true },
          approve: { execute: true, view: true },
          read: { execute: false, view: false },
        }),
      });
    expect(await visible(blind.token)).toEqual([200, 200, true]);
  });
});

describe('Registered by another user', () => {
  it('answers a create that loses the race for a unique value with 409 REGISTERED_BY_ANOTHER_USER, not 500', async () => {
    const owner = await signedInOwner(app, { organizationName: '同時登録株式会社' });
    const group = await createGroup(app, owner.token, '購買部');
    // Another user's create, not committed yet: the request's own check cannot see it, its insert waits for it.
    const other = await knex().transaction();
    try {
      await other('workspaces').insert({ organization_id: owner.organizationId, name: '先に', system_link_id: 'WS-1' });
      const pending = app.api.call('createWorkspace', {
        token: owner.token,
        body: workspaceBody({
          name: '後から',
          systemLinkId: 'WS-1',
          participants: [{ kind: 'group', groupId: group }],
        }),
      });
      await insertBlockedOn('workspaces');
      await other.commit();
      const response = await pending;
      expect(response.status, JSON.stringify(response.body)).toBe(409);
      expect(response.body.errors[0]).toMatchObject({
        code: 'REGISTERED_BY_ANOTHER_USER',
        source: { pointer: '/data/attributes/systemLinkId' },
        meta: { messages: { en: 'Registered by another user.', ja: '他のユーザーが登録しました。' } },
      });
    } finally {
      if (!other.isCompleted()) await other.rollback();
    }
    // Once committed, the same create is the ordinary duplicate (422 SYSTEM_LINK_ID_TAKEN).
    const again = await app.api.call('createWorkspace', {
      token: owner.token,
      body: workspaceBody({ name: '再度', systemLinkId: 'WS-1', participants: [{ kind: 'group', groupId: group }] }),
    });
    expect([again.status, again.body.errors[0].code]).toEqual([422, 'SYSTEM_LINK_ID_TAKEN']);
  });

  it('lets exactly one of two parallel creates with the same ID for system link win; the other is refused', async () => {
    const owner = await signedInOwner(app, { organizationName: '並行作成株式会社' });
    const group = (await app.api.call('getCurrentUser', { token: owner.token })).body.data.attributes.groups[0].id;
    const create = () =>
      app.api.call('createWorkspace', {
        token: owner.token,
        body: workspaceBody({
          name: '並行',
          systemLinkId: 'WS-PARALLEL',
          participants: [{ kind: 'group', groupId: group }],
        }),
      });
    const answers = await Promise.all([create(), create()]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses[0], JSON.stringify(answers.map((a) => a.body))).toBe(201);
    const loser = answers.find((a) => a.status !== 201)!;
    // The loser either saw the winner's row (422) or lost the insert race (409); never a 500.
    expect([
      ['422', 'SYSTEM_LINK_ID_TAKEN'],
      ['409', 'REGISTERED_BY_ANOTHER_USER'],
    ]).toContainEqual([String(loser.status), loser.body.errors[0].code]);
  });

  it('maps a unique violation no module mapped to 409 REGISTERED_BY_ANOTHER_USER', async () => {
    const owner = await signedInOwner(app, { organizationName: '汎用マッピング株式会社', plan: 'standard' });
    const body = { data: { type: 'Property', attributes: { scope: 10, name: '契約金額', inputType: 20 } } };
    const other = await knex().transaction();
    try {
      // Another user's property of the same name, uncommitted (it never took the per-organization lock).
      await other('custom_properties').insert({
        organization_id: owner.organizationId,
        name: '契約金額',
        input_type: 20,
        scope: 10,
        max_length: 50,
      });
      const pending = app.api.call('createProperty', { token: owner.token, body });
      await insertBlockedOn('custom_properties');
      await other.commit();
      const response = await pending;
      expect([response.status, response.body.errors[0].code]).toEqual([409, 'REGISTERED_BY_ANOTHER_USER']);
    } finally {
      if (!other.isCompleted()) await other.rollback();
    }
  });
});

describe('Permissions have been updated by another user', () => {
  it('refuses a write made with a stale permissions version (409 PERMISSIONS_CHANGED) and takes the fresh one', async () => {
    const owner = await signedInOwner(app, { organizationName: '権限変更株式会社' });
    const group = await createGroup(app, owner.token, '総務部');
    const admin = await userIn(app, owner.organizationId, [group], [], { is_admin: true });
    const read = async () =>
      (await app.api.call('getCurrentUser', { token: admin.token })).body.data.attributes.permissionsVersion as string;
    const seen = await read();
    const create = (version?: string) =>
      app.api.call('createWorkspace', {
        token: admin.token,
        headers: version ? { 'x-permissions-version': version } : {},
        body: workspaceBody({ name: `権限 ${Math.random()}`, participants: [{ kind: 'group', groupId: group }] }),
      });
    const first = await create(seen);
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    // Another administrator changes this user's permissions (a new role) while the screen stays open.
    const newRole = await role(owner.organizationId, { approve: { execute: true, view: true } });
    await knex()('user_roles').insert({ user_id: admin.id, role_id: newRole });
    const stale = await create(seen);
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0]).toMatchObject({
      code: 'PERMISSIONS_CHANGED',
      meta: { messages: { en: 'Permissions have been updated by another user. Please reload.' } },
    });
    // Reads are not refused (the screen reloads with them); a write without the header is an integrator's.
    const list = await app.api.call('listWorkspaces', {
      token: admin.token,
      headers: { 'x-permissions-version': seen },
    });
    expect(list.status).toBe(200);
    expect((await create()).status).toBe(201);
    const fresh = await read();
    expect(fresh).not.toBe(seen);
    expect((await create(fresh)).status).toBe(201);
  });
});

describe('e-mail blocking on a permanent delivery failure', () => {
  it('blocks an address the SMTP server refuses with 550 at RCPT; no mail goes to it until it is unblocked', async () => {
    const owner = await signedInOwner(app, { organizationName: '配信不能株式会社' });
    const group = await createGroup(app, owner.token, '経理部');
    const user = await userIn(app, owner.organizationId, [group]);
    sink.rejectedRecipients.add(user.email.toLowerCase());
    const request = () => app.api.call('requestEmailConfirmation', { token: user.token });
    expect((await request()).status).toBe(202);
    await eventually(async () => {
      const row = await knex()('users').where({ id: user.id }).first('email_blocked_at');
      return row.email_blocked_at !== null;
    });
    const shown = await app.api.call('getUser', { token: owner.token, params: { userId: user.id } });
    expect(shown.body.data.attributes.emailBlocked).toBe(true);
    const blockedLog = await knex()('operation_logs').where({ action: 'user.email_blocked', target_id: user.id });
    expect(blockedLog).toHaveLength(1);
    expect(blockedLog[0].details).toMatchObject({ via: 'smtp', status: '550' });

    // Blocked: the next mail is not even queued.
    sink.rejectedRecipients.delete(user.email.toLowerCase());
    await request();
    const skipped = await knex()('operation_logs').where({
      action: 'mail.skipped_blocked_address',
      target_id: user.id,
    });
    expect(skipped).toHaveLength(1);

    // The administrator unblocks the address: mail reaches it again.
    const { lock_version: lockVersion } = await knex()('users').where({ id: user.id }).first('lock_version');
    const unblocked = await app.api.call('unblockUserEmail', {
      token: owner.token,
      params: { userId: user.id },
      body: { data: { type: 'User', attributes: { lockVersion } } },
    });
    expect(unblocked.status).toBe(200);
    expect(unblocked.body.data.attributes.emailBlocked).toBe(false);
    await request();
    await sink.waitFor((mail) => mail.envelope.to.includes(user.email));
    expect(sink.to(user.email)).toHaveLength(1);
  });

  it('blocks the failed recipient of a DSN (Status 5.x.x) fed to POST /mail/bounces with the shared secret', async () => {
    const owner = await signedInOwner(app, { organizationName: 'バウンス株式会社' });
    const group = await createGroup(app, owner.token, '人事部');
    const bounced = await userIn(app, owner.organizationId, [group]);
    const delayed = await userIn(app, owner.organizationId, [group]);
    const report = [
      'From: MAILER-DAEMON@mx.example.jp',
      `To: noreply@keiyaku.example`,
      'Subject: Undelivered Mail Returned to Sender',
      'MIME-Version: 1.0',
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=us-ascii',
      '',
      'This is the mail system. Your message could not be delivered.',
      '',
      '--b1',
      'Content-Type: message/delivery-status',
      '',
      'Reporting-MTA: dns; mx.example.jp',
      'Arrival-Date: Fri, 27 Nov 2026 10:00:00 +0900',
      '',
      `Final-Recipient: rfc822; ${bounced.email.toUpperCase()}`,
      `Original-Recipient: rfc822;${bounced.email}`,
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 User unknown',
      '',
      `Final-Recipient: rfc822; ${delayed.email}`,
      'Action: delayed',
      'Status: 4.4.1',
      '',
      '--b1--',
      '',
    ].join('\r\n');
    const ingest = (authorization?: string) =>
      app.api.call('ingestMailBounce', {
        headers: authorization ? { authorization } : {},
        body: { data: { type: 'MailBounce', attributes: { report } } },
      });
    expect((await ingest()).status).toBe(401);
    expect((await ingest('Bearer not-the-secret')).status).toBe(401);
    expect(await knex()('users').whereIn('id', [bounced.id, delayed.id]).whereNotNull('email_blocked_at')).toEqual([]);

    const accepted = await ingest(`Bearer ${BOUNCE_SECRET}`);
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.attributes.recipients).toEqual([
      { address: bounced.email.toUpperCase(), status: '5.1.1', action: 'failed', permanent: true, blocked: true },
      { address: delayed.email, status: '4.4.1', action: 'delayed', permanent: false, blocked: false },
    ]);
    const rows = await knex()('users').whereIn('id', [bounced.id, delayed.id]).select('id', 'email_blocked_at');
    expect(rows.find((r) => r.id === bounced.id)!.email_blocked_at).not.toBeNull();
    expect(rows.find((r) => r.id === delayed.id)!.email_blocked_at).toBeNull();
  });
});
