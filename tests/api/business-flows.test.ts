import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { autoCompleteIfDone } from '../../core/modules/business-flows/complete.ts';
import { insertUser, memberToken } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { createFlow, createFlowProperty, flowBody, insertDocument } from '../helpers/business-flows.ts';
import { tryUpload } from '../helpers/documents.ts';
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';
import { type AdminSession, adminSession, lastLog } from '../helpers/org-admin.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
let a: AdminSession;
let b: AdminSession;
/** A's workspace: A's default group editable, B as a public partner that may edit client-editable values. */
let workspaceId: string;

beforeAll(async () => {
  app = await startApp();
  a = await adminSession(app, { organizationName: 'フロー株式会社', plan: 'standard' });
  b = await adminSession(app, { organizationName: '取引先株式会社' });
  workspaceId = await seedWorkspace(app, a.organizationId, [
    { groupId: a.defaultGroupId, isEditable: true },
    { partnerOrganizationId: b.organizationId, isPublic: true, isEditable: true },
  ]);
});
afterAll(() => app?.close());

const knex = () => app.service.deps.knex;
const get = (token: string, id: string) => app.api.call('getBusinessFlow', { token, params: { businessFlowId: id } });
const update = (token: string, id: string, attributes: Record<string, unknown>) =>
  app.api.call('updateBusinessFlow', { token, params: { businessFlowId: id }, body: flowBody(attributes) });
const complete = (token: string, id: string, lockVersion: number) =>
  app.api.call('completeBusinessFlow', { token, params: { businessFlowId: id }, body: flowBody({ lockVersion }) });
const incomplete = (token: string, id: string, lockVersion: number) =>
  app.api.call('markBusinessFlowIncomplete', {
    token,
    params: { businessFlowId: id },
    body: flowBody({ lockVersion }),
  });
const cancel = (token: string, id: string, lockVersion: number, comment: string) =>
  app.api.call('cancelBusinessFlow', {
    token,
    params: { businessFlowId: id },
    body: flowBody({ lockVersion, comment }),
  });

describe('creating business flows', () => {
  it('creates a flow from scratch with flow-scope properties, in progress, autoComplete on, and logs it', async () => {
    const amount = await createFlowProperty(app, a.token, { name: '金額', inputType: 10 });
    const flow = await createFlow(app, a.token, workspaceId, {
      name: '売買契約 2026',
      systemLinkId: 'FLOW-1',
      comment: '初回取引',
      properties: [{ propertyId: amount.id, value: '150000' }],
    });
    expect(flow.attributes).toMatchObject({
      name: '売買契約 2026',
      systemLinkId: 'FLOW-1',
      status: 'in_progress',
      autoComplete: true,
      comment: '初回取引',
      businessFlowTemplateId: null,
      workspace: { id: workspaceId, name: '取引ワークスペース' },
      canEdit: true,
      documents: [],
      lockVersion: 0,
    });
    expect(flow.attributes.properties).toEqual([
      expect.objectContaining({ propertyId: amount.id, name: '金額', inputType: 10, value: '150000', editable: true }),
    ]);
    expect(await lastLog(app, 'business_flow.created', flow.id)).toMatchObject({
      actor_user_id: a.ownerId,
      organization_id: a.organizationId,
    });
  });

  it('creates a flow from a business flow template: name, comment, autoComplete and properties, template id kept', async () => {
    const region = await createFlowProperty(app, a.token, { name: '地域', inputType: 20 });
    const [template] = await knex()('business_flow_templates')
      .insert({
        organization_id: a.organizationId,
        name: '定型の取引',
        comment: 'テンプレートのコメント',
        auto_complete: false,
        properties: JSON.stringify([{ propertyId: region.id, value: '関東' }]),
      })
      .returning('id');
    const flow = await createFlow(app, a.token, workspaceId, { businessFlowTemplateId: template.id });
    expect(flow.attributes).toMatchObject({
      name: '定型の取引',
      comment: 'テンプレートのコメント',
      autoComplete: false,
      businessFlowTemplateId: template.id,
    });
    expect(flow.attributes.properties).toEqual([expect.objectContaining({ propertyId: region.id, value: '関東' })]);
    const named = await createFlow(app, a.token, workspaceId, {
      businessFlowTemplateId: template.id,
      name: '個別の名前',
      properties: [{ propertyId: region.id, value: '関西' }],
    });
    expect(named.attributes.name).toBe('個別の名前');
    expect(named.attributes.properties[0].value).toBe('関西');
  });

  it('rejects another organization’s template as REFERENCE_NOT_FOUND (422)', async () => {
    const [foreign] = await knex()('business_flow_templates')
      .insert({ organization_id: b.organizationId, name: 'B社のテンプレート' })
      .returning('id');
    const response = await app.api.call('createBusinessFlow', {
      token: a.token,
      params: { workspaceId },
      body: flowBody({ businessFlowTemplateId: foreign.id }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
      source: { pointer: '/data/attributes/businessFlowTemplateId' },
    });
  });

  it('requires a name without a template (422 VALIDATION_FAILED on /data/attributes/name)', async () => {
    const response = await app.api.call('createBusinessFlow', {
      token: a.token,
      params: { workspaceId },
      body: flowBody({ comment: '名前なし' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].source.pointer).toBe('/data/attributes/name');
  });

  it('rejects a missing required property (PROPERTY_VALUE_REQUIRED) and an invalid value, one error each', async () => {
    const org = await adminSession(app, { plan: 'standard' });
    const ws = await seedWorkspace(app, org.organizationId, [{ groupId: org.defaultGroupId }]);
    await createFlowProperty(app, org.token, { name: '取引日', inputType: 30, required: true });
    const amount = await createFlowProperty(app, org.token, { name: '金額', inputType: 10 });
    const response = await app.api.call('createBusinessFlow', {
      token: org.token,
      params: { workspaceId: ws },
      body: flowBody({ name: '不備あり', properties: [{ propertyId: amount.id, value: 'たくさん' }] }),
    });
    expect(response.status).toBe(422);
    const errors = response.body.errors.map((e: any) => [e.code, e.source.pointer]);
    expect(errors).toEqual(
      expect.arrayContaining([
        ['PROPERTY_VALUE_NOT_A_NUMBER', '/data/attributes/properties/0/value'],
        ['PROPERTY_VALUE_REQUIRED', '/data/attributes/properties'],
      ]),
    );
    expect(await knex()('business_flows').where({ organization_id: org.organizationId })).toHaveLength(0);
  });

  it('rejects a duplicate ID for system link within the organization (SYSTEM_LINK_ID_TAKEN)', async () => {
    await createFlow(app, a.token, workspaceId, { name: '一つ目', systemLinkId: 'DUP-1' });
    const response = await app.api.call('createBusinessFlow', {
      token: a.token,
      params: { workspaceId },
      body: flowBody({ name: '二つ目', systemLinkId: 'DUP-1' }),
    });
    expect(response.body.errors[0]).toMatchObject({
      code: 'SYSTEM_LINK_ID_TAKEN',
      source: { pointer: '/data/attributes/systemLinkId' },
    });
  });

  it('refuses creation to a member of a participating group that is not editable (403 WORKSPACE_EDIT_NOT_ALLOWED)', async () => {
    const org = await adminSession(app);
    const ws = await seedWorkspace(app, org.organizationId, [{ groupId: org.defaultGroupId, isEditable: false }]);
    const member = await memberToken(app, org.organizationId);
    const response = await app.api.call('createBusinessFlow', {
      token: member,
      params: { workspaceId: ws },
      body: flowBody({ name: '閲覧のみ' }),
    });
    expect([response.status, response.body.errors[0].code]).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
  });

  it('answers 404 for a workspace the caller does not take part in', async () => {
    const outsider = await adminSession(app);
    const response = await app.api.call('createBusinessFlow', {
      token: outsider.token,
      params: { workspaceId },
      body: flowBody({ name: '侵入' }),
    });
    expect([response.status, response.body.errors[0].code]).toEqual([404, 'NOT_FOUND']);
  });
});

describe('updating business flows', () => {
  it('changes name, comment and properties, bumps lockVersion and logs before and after', async () => {
    const note = await createFlowProperty(app, a.token, { name: '備考', inputType: 20 });
    const flow = await createFlow(app, a.token, workspaceId, { name: '更新前' });
    const response = await update(a.token, flow.id, {
      lockVersion: 0,
      name: '更新後',
      comment: '変更',
      autoComplete: false,
      properties: [{ propertyId: note.id, value: 'メモ' }],
    });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({
      name: '更新後',
      comment: '変更',
      autoComplete: false,
      lockVersion: 1,
    });
    expect(response.body.data.attributes.properties).toEqual([expect.objectContaining({ value: 'メモ' })]);
    expect((await lastLog(app, 'business_flow.updated', flow.id)).details).toMatchObject({
      before: { name: '更新前' },
      after: { name: '更新後' },
    });
  });

  it('lets exactly one of two concurrent updates with the same lockVersion win; the other gets 409', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '競合' });
    const results = await Promise.all([
      update(a.token, flow.id, { lockVersion: 0, name: '一方' }),
      update(a.token, flow.id, { lockVersion: 0, name: '他方' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    const winner = results.find((r) => r.status === 200)!.body.data.attributes.name;
    expect((await get(a.token, flow.id)).body.data.attributes).toMatchObject({ name: winner, lockVersion: 1 });
  });

  it('shows a partner only properties public to clients, editable only where editable by clients', async () => {
    const hidden = await createFlowProperty(app, a.token, { name: '社内メモ', inputType: 20 });
    const shown = await createFlowProperty(app, a.token, { name: '納期', inputType: 20, publicToClient: true });
    const shared = await createFlowProperty(app, a.token, {
      name: '先方担当',
      inputType: 20,
      publicToClient: true,
      editableByClient: true,
    });
    const flow = await createFlow(app, a.token, workspaceId, {
      name: '共有フロー',
      properties: [
        { propertyId: hidden.id, value: '秘密' },
        { propertyId: shown.id, value: '月末' },
        { propertyId: shared.id, value: '佐藤' },
      ],
    });
    const seen = await get(b.token, flow.id);
    expect(seen.status).toBe(200);
    const props = seen.body.data.attributes.properties;
    expect(props.map((p: any) => [p.name, p.editable])).toEqual([
      ['先方担当', true],
      ['納期', false],
    ]);
    expect(JSON.stringify(seen.body)).not.toContain('秘密');

    const ok = await update(b.token, flow.id, {
      lockVersion: 0,
      properties: [{ propertyId: shared.id, value: '鈴木' }],
    });
    expect(ok.status).toBe(200);
    const readOnly = await update(b.token, flow.id, {
      lockVersion: 1,
      properties: [{ propertyId: shown.id, value: '来月' }],
    });
    expect([readOnly.status, readOnly.body.errors[0].code]).toEqual([403, 'FORBIDDEN']);
    const secret = await update(b.token, flow.id, {
      lockVersion: 1,
      properties: [{ propertyId: hidden.id, value: '上書き' }],
    });
    expect([secret.status, secret.body.errors[0].code]).toEqual([422, 'REFERENCE_NOT_FOUND']);
    const rename = await update(b.token, flow.id, { lockVersion: 1, name: '改名' });
    expect([rename.status, rename.body.errors[0].code]).toEqual([403, 'FORBIDDEN']);
    const status = await complete(b.token, flow.id, 1);
    expect([status.status, status.body.errors[0].code]).toEqual([403, 'FORBIDDEN']);
  });

  it('refuses a partner whose participation is not editable any change (403 WORKSPACE_EDIT_NOT_ALLOWED)', async () => {
    const partner = await adminSession(app);
    const ws = await seedWorkspace(app, a.organizationId, [
      { groupId: a.defaultGroupId, isEditable: true },
      { partnerOrganizationId: partner.organizationId, isPublic: true, isEditable: false },
    ]);
    const shared = await createFlowProperty(app, a.token, {
      name: '先方メモ',
      inputType: 20,
      publicToClient: true,
      editableByClient: true,
    });
    const flow = await createFlow(app, a.token, ws, { name: '閲覧だけの取引先' });
    const seen = await get(partner.token, flow.id);
    expect(seen.body.data.attributes.canEdit).toBe(false);
    const response = await update(partner.token, flow.id, {
      lockVersion: 0,
      properties: [{ propertyId: shared.id, value: 'x' }],
    });
    expect([response.status, response.body.errors[0].code]).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
  });
});

describe('status changes', () => {
  it('requires a reason to cancel (422 DOCUMENT_CANCEL_COMMENT_REQUIRED)', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '理由なし' });
    const response = await cancel(a.token, flow.id, 0, '   ');
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'DOCUMENT_CANCEL_COMMENT_REQUIRED',
      source: { pointer: '/data/attributes/comment' },
    });
    expect((await get(a.token, flow.id)).body.data.attributes.status).toBe('in_progress');
  });

  it('cancel keeps every row: open documents cancelled with the reason, their open tasks cancelled, completed ones untouched', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '取り消す取引' });
    const ref = { id: flow.id, organizationId: a.organizationId };
    const open = await insertDocument(app, ref, { tasks: [{ groupId: a.defaultGroupId }] });
    const done = await insertDocument(app, ref, {
      status: 'completed',
      tasks: [{ groupId: a.defaultGroupId, status: 'completed' }],
    });
    const response = await cancel(a.token, flow.id, 0, '先方都合により中止');
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toMatchObject({
      status: 'cancelled',
      cancelComment: '先方都合により中止',
      canEdit: false,
    });
    expect(response.body.data.attributes.cancelledAt).not.toBeNull();
    expect(response.body.data.attributes.documents.map((d: any) => [d.id, d.status])).toEqual(
      expect.arrayContaining([
        [open, 'cancelled'],
        [done, 'completed'],
      ]),
    );
    expect(await knex()('documents').where({ id: open }).first()).toMatchObject({
      status: 'cancelled',
      cancel_comment: '先方都合により中止',
    });
    expect((await knex()('tasks').where({ document_id: open })).map((t) => t.status)).toEqual(['cancelled']);
    expect((await knex()('tasks').where({ document_id: done })).map((t) => t.status)).toEqual(['completed']);
    expect(await knex()('document_events').where({ document_id: open, kind: 'cancelled' }).first()).toMatchObject({
      reason: '先方都合により中止',
    });
    expect(await lastLog(app, 'business_flow.cancelled', flow.id)).toBeTruthy();
  });

  it('a cancelled flow refuses updates, status changes and new documents (409 BUSINESS_FLOW_CANCELLED)', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '取り消し済み' });
    expect((await cancel(a.token, flow.id, 0, '中止')).status).toBe(200);
    const refusals = [
      await update(a.token, flow.id, { lockVersion: 1, name: '復活' }),
      await complete(a.token, flow.id, 1),
      await incomplete(a.token, flow.id, 1),
      await cancel(a.token, flow.id, 1, 'もう一度'),
      await tryUpload(app, a.token, flow.id),
    ];
    expect(refusals.map((r) => [r.status, r.body.errors[0].code])).toEqual(
      Array(5).fill([409, 'BUSINESS_FLOW_CANCELLED']),
    );
    expect(await knex()('documents').where({ business_flow_id: flow.id })).toHaveLength(0);
  });

  it('manual completion mails every party: the creator, members of assigned groups and users of assigned partners', async () => {
    const memberLogin = await insertUser(app, a.organizationId);
    const flow = await createFlow(app, a.token, workspaceId, { name: '完了通知の取引' });
    await insertDocument(
      app,
      { id: flow.id, organizationId: a.organizationId },
      { tasks: [{ groupId: a.defaultGroupId }, { partnerOrganizationId: b.organizationId, order: 2 }] },
    );
    const response = await complete(a.token, flow.id, 0);
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.status).toBe('complete');
    expect(response.body.data.attributes.completedAt).not.toBeNull();
    for (const email of [a.email, `${memberLogin}@example.com`, b.email]) {
      const mail = await waitForMail(
        app,
        (m) => recipientOf(m).includes(email) && (m.text ?? '').includes('完了通知の取引'),
      );
      // The partner's user is sent to the partner view of the flow.
      const page = email === b.email ? 'outer-business-flows' : 'business-flows';
      expect(mail.text).toContain(`/${page}/${flow.id}`);
    }
    expect((await lastLog(app, 'business_flow.completed', flow.id)).details).toMatchObject({ how: 'manual' });
  });

  it('no completion mail is queued when the workspace mail notification is off', async () => {
    const ws = await seedWorkspace(app, a.organizationId, [{ groupId: a.defaultGroupId, isEditable: true }], {
      name: '通知なし',
      mailNotification: false,
    });
    const flow = await createFlow(app, a.token, ws, { name: '静かな完了' });
    expect((await complete(a.token, flow.id, 0)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await readOutbox(app)).filter((m) => (m.text ?? '').includes('静かな完了'))).toEqual([]);
  });

  it('sets a complete flow back to incomplete (completedAt cleared) and completes it again by hand', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '戻す取引' });
    expect((await complete(a.token, flow.id, 0)).status).toBe(200);
    const again = await complete(a.token, flow.id, 1);
    expect([again.status, again.body.errors[0].code]).toEqual([409, 'BUSINESS_FLOW_STATUS_INVALID']);
    const back = await incomplete(a.token, flow.id, 1);
    expect(back.status).toBe(200);
    expect(back.body.data.attributes).toMatchObject({ status: 'incomplete', completedAt: null, lockVersion: 2 });
    const twice = await incomplete(a.token, flow.id, 2);
    expect([twice.status, twice.body.errors[0].code]).toEqual([409, 'BUSINESS_FLOW_STATUS_INVALID']);
    expect((await complete(a.token, flow.id, 2)).body.data.attributes.status).toBe('complete');
  });

  it('an in-progress flow may also be marked incomplete', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '未完了へ' });
    const response = await incomplete(a.token, flow.id, 0);
    expect(response.body.data.attributes.status).toBe('incomplete');
  });

  it('rejects a stale lockVersion on a status change with 409 UPDATED_BY_ANOTHER_USER', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '古い版' });
    expect((await update(a.token, flow.id, { lockVersion: 0, comment: 'x' })).status).toBe(200);
    const stale = await complete(a.token, flow.id, 0);
    expect([stale.status, stale.body.errors[0].code]).toEqual([409, 'UPDATED_BY_ANOTHER_USER']);
  });
});

describe('auto-complete', () => {
  const auto = (flowId: string) =>
    knex().transaction((trx) =>
      autoCompleteIfDone(app.service.deps, trx, flowId, { userId: null, organizationId: a.organizationId }),
    );

  it('completes an in-progress flow once every non-cancelled document is completed, and mails the parties', async () => {
    const flow = await createFlow(app, a.token, workspaceId, { name: '自動完了の取引' });
    const ref = { id: flow.id, organizationId: a.organizationId };
    const open = await insertDocument(app, ref);
    await insertDocument(app, ref, { status: 'completed' });
    await insertDocument(app, ref, { status: 'cancelled' });
    expect(await auto(flow.id)).toBe(false);
    await knex()('documents').where({ id: open }).update({ status: 'completed' });
    expect(await auto(flow.id)).toBe(true);
    expect((await get(a.token, flow.id)).body.data.attributes.status).toBe('complete');
    expect((await lastLog(app, 'business_flow.completed', flow.id)).details).toMatchObject({ how: 'auto' });
    await waitForMail(app, (m) => recipientOf(m).includes(a.email) && (m.text ?? '').includes('自動完了の取引'));
  });

  it('does not complete a flow with autoComplete off, without documents, or with only cancelled documents', async () => {
    const off = await createFlow(app, a.token, workspaceId, { name: '手動のみ', autoComplete: false });
    await insertDocument(app, { id: off.id, organizationId: a.organizationId }, { status: 'completed' });
    const empty = await createFlow(app, a.token, workspaceId, { name: '書類なし' });
    const cancelledOnly = await createFlow(app, a.token, workspaceId, { name: '取消のみ' });
    await insertDocument(app, { id: cancelledOnly.id, organizationId: a.organizationId }, { status: 'cancelled' });
    expect([await auto(off.id), await auto(empty.id), await auto(cancelledOnly.id)]).toEqual([false, false, false]);
    expect((await get(a.token, off.id)).body.data.attributes.status).toBe('in_progress');
  });
});
