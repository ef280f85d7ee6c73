import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { memberToken } from '../helpers/accounts.ts';
import { type AdminSession, adminSession, createGroup, lastLog, NO_TASKS } from '../helpers/org-admin.ts';

let app: TestApp;
let admin: AdminSession;
beforeAll(async () => {
  app = await startApp();
  admin = await adminSession(app, { organizationName: 'テンプレート株式会社', plan: 'standard' });
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const docBody = (attributes: Record<string, unknown>) => ({ data: { type: 'DocumentTemplate', attributes } });
const flowBody = (attributes: Record<string, unknown>) => ({ data: { type: 'BusinessFlowTemplate', attributes } });
const codes = (r: { body: { errors: { code: string; source?: { pointer: string } }[] } }) =>
  r.body.errors.map((e) => [e.code, e.source?.pointer]);
let counter = 0;
const unique = (prefix: string) => `${prefix}-${++counter}`;

/** An approve task of the admin's default group (always a valid one-task plan). */
const approve = (extra: Record<string, unknown> = {}) => ({
  order: 1,
  type: 'approve',
  assignee: { kind: 'group', groupId: admin.defaultGroupId },
  required: true,
  ...extra,
});

async function createDocumentTemplate(token: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('createDocumentTemplate', { token, body: docBody(attributes) });
  if (response.status !== 201) throw new Error(`createDocumentTemplate failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

async function createFlowTemplate(token: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('createBusinessFlowTemplate', { token, body: flowBody(attributes) });
  if (response.status !== 201) throw new Error(`createBusinessFlowTemplate failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

async function createProperty(token: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('createProperty', {
    token,
    body: { data: { type: 'Property', attributes: { name: unique('prop'), ...attributes } } },
  });
  if (response.status !== 201) throw new Error(`createProperty failed: ${JSON.stringify(response.body)}`);
  return response.body.data as { id: string; attributes: Record<string, any> };
}

async function createRole(token: string, taskPermissions = NO_TASKS) {
  const response = await app.api.call('createRole', {
    token,
    body: { data: { type: 'Role', attributes: { name: unique('role'), taskPermissions } } },
  });
  if (response.status !== 201) throw new Error(`createRole failed: ${JSON.stringify(response.body)}`);
  return response.body.data.id as string;
}

describe('document templates', () => {
  it('creates a document template with tasks, properties and reading positions, and logs document_template.created', async () => {
    const amount = await createProperty(admin.token, { inputType: 10, scope: 20, numberUnit: 20 });
    const role = await createRole(admin.token, { ...NO_TASKS, approve: { execute: true, view: true } });
    const created = await createDocumentTemplate(admin.token, {
      name: '売買契約書',
      systemLinkId: 'SALES-CONTRACT',
      documentType: 'contract',
      tasks: [approve({ roleId: role, templateId: 'T1' }), { ...approve(), order: 2, type: 'read', required: false }],
      properties: [{ propertyId: amount.id, value: '1,234,567' }],
      readingPositions: [{ propertyId: amount.id, page: 1, x: 10, y: 20, width: 100, height: 30, hint: ' ¥1,000 ' }],
    });
    expect(created.attributes).toMatchObject({
      name: '売買契約書',
      systemLinkId: 'SALES-CONTRACT',
      documentType: 'contract',
      usedBy: 0,
      lockVersion: 0,
      properties: [{ propertyId: amount.id, value: '1234567', labelName: null, inputType: 10 }],
      readingPositions: [{ propertyId: amount.id, page: 1, x: 10, y: 20, width: 100, height: 30, hint: '¥1,000' }],
      sample: null,
    });
    expect(created.attributes.tasks).toEqual([
      {
        order: 1,
        type: 'approve',
        roleId: role,
        roleName: expect.any(String),
        assignee: { kind: 'group', groupId: admin.defaultGroupId, name: 'テンプレート株式会社' },
        required: true,
        templateId: 'T1',
      },
      {
        order: 2,
        type: 'read',
        roleId: null,
        roleName: null,
        assignee: { kind: 'group', groupId: admin.defaultGroupId, name: 'テンプレート株式会社' },
        required: false,
        templateId: null,
      },
    ]);
    // Stored in the shape the tasks module takes when a document is created from the template.
    const row = await knex()('document_templates').where({ id: created.id }).first();
    expect(row.tasks[0]).toEqual({
      order: 1,
      type: 'approve',
      roleId: role,
      assignee: { kind: 'group', groupId: admin.defaultGroupId },
      required: true,
      templateId: 'T1',
    });
    expect(await lastLog(app, 'document_template.created', created.id)).toMatchObject({
      actor_user_id: admin.ownerId,
      target_type: 'document_template',
    });
  });

  it('rejects a duplicate template name with 409 TEMPLATE_NAME_TAKEN', async () => {
    await createDocumentTemplate(admin.token, { name: '発注書テンプレート' });
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({ name: '発注書テンプレート' }),
    });
    expect(response.status).toBe(409);
    expect(codes(response)).toEqual([['TEMPLATE_NAME_TAKEN', '/data/attributes/name']]);
  });

  it('rejects a duplicate ID for system link within the organization with SYSTEM_LINK_ID_TAKEN', async () => {
    await createDocumentTemplate(admin.token, { name: unique('doc'), systemLinkId: 'DOC-LINK' });
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({ name: unique('doc'), systemLinkId: 'DOC-LINK' }),
    });
    expect(response.status).toBe(422);
    expect(codes(response)).toEqual([['SYSTEM_LINK_ID_TAKEN', '/data/attributes/systemLinkId']]);
  });

  it('lets another organization use the same template name and ID for system link', async () => {
    const other = await adminSession(app, { plan: 'standard' });
    await createDocumentTemplate(admin.token, { name: '共通名', systemLinkId: 'SHARED-LINK' });
    const theirs = await createDocumentTemplate(other.token, { name: '共通名', systemLinkId: 'SHARED-LINK' });
    expect(theirs.attributes.name).toBe('共通名');
  });

  it('rejects a second task with order 1 (422 TASK_ORDER_ONE_NOT_UNIQUE)', async () => {
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({ name: unique('doc'), tasks: [approve(), approve()] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { code: string }) => e.code)).toContain('TASK_ORDER_ONE_NOT_UNIQUE');
  });

  it('rejects a read task that is neither last nor parallel (422 TASK_READ_NOT_LAST)', async () => {
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({ name: unique('doc'), tasks: [approve({ type: 'read' }), approve({ order: 2 })] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { code: string }) => e.code)).toContain('TASK_READ_NOT_LAST');
  });

  it('rejects a plan without a required task of an own group (422 TASK_OWN_GROUP_REQUIRED)', async () => {
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({ name: unique('doc'), tasks: [approve({ required: false })] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { code: string }) => e.code)).toContain('TASK_OWN_GROUP_REQUIRED');
  });

  it('rejects a role that cannot perform the task (422 ROLE_CANNOT_PERFORM_TASK)', async () => {
    const reader = await createRole(admin.token, { ...NO_TASKS, read: { execute: true, view: true } });
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({ name: unique('doc'), tasks: [approve({ roleId: reader })] }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { code: string }) => e.code)).toContain('ROLE_CANNOT_PERFORM_TASK');
  });

  it('rejects duplicate task template IDs within a document template (409 TASK_TEMPLATE_ID_DUPLICATE)', async () => {
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({
        name: unique('doc'),
        tasks: [approve({ templateId: 'SAME' }), approve({ order: 2, templateId: 'SAME' })],
      }),
    });
    expect(response.status).toBe(409);
    expect(response.body.errors[0].code).toBe('TASK_TEMPLATE_ID_DUPLICATE');
  });

  it('rejects a group or role of another organization in a task (422 REFERENCE_NOT_FOUND)', async () => {
    const other = await adminSession(app, { plan: 'standard' });
    const theirRole = await createRole(other.token, { ...NO_TASKS, approve: { execute: true, view: true } });
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({
        name: unique('doc'),
        tasks: [approve({ assignee: { kind: 'group', groupId: other.defaultGroupId }, roleId: theirRole })],
      }),
    });
    expect(response.status).toBe(422);
    expect(codes(response)).toEqual([
      ['REFERENCE_NOT_FOUND', '/data/attributes/tasks/0/assignee/groupId'],
      ['REFERENCE_NOT_FOUND', '/data/attributes/tasks/0/roleId'],
    ]);
  });

  it('validates preset property values with the property rules (422 with the value pointer)', async () => {
    const count = await createProperty(admin.token, { inputType: 10, scope: 20 });
    const flowScoped = await createProperty(admin.token, { inputType: 20, scope: 10 });
    const response = await app.api.call('createDocumentTemplate', {
      token: admin.token,
      body: docBody({
        name: unique('doc'),
        properties: [
          { propertyId: count.id, value: 'abc' },
          { propertyId: flowScoped.id, value: 'x' },
        ],
      }),
    });
    expect(response.status).toBe(422);
    expect(codes(response)).toEqual([
      ['PROPERTY_VALUE_NOT_A_NUMBER', '/data/attributes/properties/0/value'],
      ['REFERENCE_NOT_FOUND', '/data/attributes/properties/1/propertyId'],
    ]);
  });

  it('shows an enum preset with its option label', async () => {
    const kind = await createProperty(admin.token, { inputType: 40, scope: 20, options: [{ label: '新規' }] });
    const optionId = kind.attributes.options[0].id;
    const created = await createDocumentTemplate(admin.token, {
      name: unique('doc'),
      properties: [{ propertyId: kind.id, value: optionId }],
    });
    expect(created.attributes.properties).toEqual([
      { propertyId: kind.id, name: kind.attributes.name, inputType: 40, value: optionId, labelName: '新規' },
    ]);
  });

  it('updates a document template with its lockVersion, replaces its tasks and logs before and after', async () => {
    const created = await createDocumentTemplate(admin.token, { name: unique('doc'), tasks: [approve()] });
    const sales = await createGroup(app, admin.token, unique('営業部'));
    const updated = await app.api.call('updateDocumentTemplate', {
      token: admin.token,
      params: { documentTemplateId: created.id },
      body: docBody({
        lockVersion: 0,
        documentType: 'invoice',
        tasks: [approve(), approve({ order: 2, assignee: { kind: 'group', groupId: sales } })],
      }),
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ documentType: 'invoice', lockVersion: 1 });
    expect(
      updated.body.data.attributes.tasks.map((t: { assignee: { groupId: string } }) => t.assignee.groupId),
    ).toEqual([admin.defaultGroupId, sales]);
    const log = await lastLog(app, 'document_template.updated', created.id);
    expect(log.details.before.documentType).toBe('contract');
    expect(log.details.after.documentType).toBe('invoice');
  });

  it('lets exactly one of two concurrent updates with the same lockVersion win (409 UPDATED_BY_ANOTHER_USER)', async () => {
    const created = await createDocumentTemplate(admin.token, { name: unique('doc') });
    const update = (name: string) =>
      app.api.call('updateDocumentTemplate', {
        token: admin.token,
        params: { documentTemplateId: created.id },
        body: docBody({ lockVersion: 0, name }),
      });
    const results = await Promise.all([update(unique('A')), update(unique('B'))]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    const row = await knex()('document_templates').where({ id: created.id }).first();
    expect(row.lock_version).toBe(1);
  });

  it('searches, sorts and pages document templates', async () => {
    const other = await adminSession(app, { plan: 'standard' });
    for (const name of ['Gamma', 'Alpha', 'Beta']) await createDocumentTemplate(other.token, { name });
    await createDocumentTemplate(other.token, { name: 'Delta', systemLinkId: 'find-me' });
    const list = (query: Record<string, string | number>) =>
      app.api.call('listDocumentTemplates', { token: other.token, query });
    const names = (r: { body: { data: { attributes: { name: string } }[] } }) =>
      r.body.data.map((t) => t.attributes.name);
    expect(names(await list({}))).toEqual(['Alpha', 'Beta', 'Delta', 'Gamma']);
    expect(names(await list({ sort: '-name', 'page[size]': 2, 'page[number]': 2 }))).toEqual(['Beta', 'Alpha']);
    const found = await list({ 'filter[q]': 'FIND' });
    expect(names(found)).toEqual(['Delta']);
    expect(found.body.meta).toEqual({ total: 1, page: { number: 1, size: 20 } });
  });
});

describe('business flow templates', () => {
  it('creates a business flow template with its documents and flow properties, and logs it', async () => {
    const doc = await createDocumentTemplate(admin.token, { name: unique('doc'), documentType: 'quotation' });
    const date = await createProperty(admin.token, { inputType: 30, scope: 10 });
    const created = await createFlowTemplate(admin.token, {
      name: '取引一式',
      systemLinkId: 'DEAL',
      comment: '見積から契約まで',
      autoComplete: false,
      properties: [{ propertyId: date.id, value: '2026/04/01' }],
      documents: [{ documentTemplateId: doc.id, templateId: 'QUOTE' }],
    });
    expect(created.attributes).toMatchObject({
      name: '取引一式',
      systemLinkId: 'DEAL',
      comment: '見積から契約まで',
      autoComplete: false,
      lockVersion: 0,
      properties: [{ propertyId: date.id, value: '2026-04-01' }],
      documents: [
        { documentTemplateId: doc.id, templateId: 'QUOTE', name: doc.attributes.name, documentType: 'quotation' },
      ],
    });
    const got = await app.api.call('getDocumentTemplate', {
      token: admin.token,
      params: { documentTemplateId: doc.id },
    });
    expect(got.body.data.attributes.usedBy).toBe(1);
    expect(await lastLog(app, 'business_flow_template.created', created.id)).toMatchObject({
      actor_user_id: admin.ownerId,
    });
  });

  it('rejects duplicate document template IDs within a business flow template (409 DOCUMENT_TEMPLATE_ID_DUPLICATE)', async () => {
    const doc = await createDocumentTemplate(admin.token, { name: unique('doc') });
    const response = await app.api.call('createBusinessFlowTemplate', {
      token: admin.token,
      body: flowBody({
        name: unique('flow'),
        documents: [
          { documentTemplateId: doc.id, templateId: 'D1' },
          { documentTemplateId: doc.id, templateId: 'D1' },
        ],
      }),
    });
    expect(response.status).toBe(409);
    expect(codes(response)).toEqual([['DOCUMENT_TEMPLATE_ID_DUPLICATE', '/data/attributes/documents/1/templateId']]);
    expect(
      await knex()('business_flow_template_documents').where({ document_template_id: doc.id }).first(),
    ).toBeUndefined();
  });

  it('rejects a document template of another organization (422 REFERENCE_NOT_FOUND)', async () => {
    const other = await adminSession(app, { plan: 'standard' });
    const theirs = await createDocumentTemplate(other.token, { name: unique('doc') });
    const response = await app.api.call('createBusinessFlowTemplate', {
      token: admin.token,
      body: flowBody({ name: unique('flow'), documents: [{ documentTemplateId: theirs.id, templateId: 'D1' }] }),
    });
    expect(response.status).toBe(422);
    expect(codes(response)).toEqual([['REFERENCE_NOT_FOUND', '/data/attributes/documents/0/documentTemplateId']]);
  });

  it('rejects a duplicate flow template name with 409 TEMPLATE_NAME_TAKEN', async () => {
    await createFlowTemplate(admin.token, { name: '月次請求' });
    const response = await app.api.call('createBusinessFlowTemplate', {
      token: admin.token,
      body: flowBody({ name: '月次請求' }),
    });
    expect(response.status).toBe(409);
    expect(codes(response)).toEqual([['TEMPLATE_NAME_TAKEN', '/data/attributes/name']]);
  });

  it('rejects a duplicate flow template ID for system link with SYSTEM_LINK_ID_TAKEN', async () => {
    await createFlowTemplate(admin.token, { name: unique('flow'), systemLinkId: 'FLOW-LINK' });
    const response = await app.api.call('createBusinessFlowTemplate', {
      token: admin.token,
      body: flowBody({ name: unique('flow'), systemLinkId: 'FLOW-LINK' }),
    });
    expect(response.status).toBe(422);
    expect(codes(response)).toEqual([['SYSTEM_LINK_ID_TAKEN', '/data/attributes/systemLinkId']]);
  });

  it('refuses to delete a document template a business flow template uses (409 TEMPLATE_IN_USE)', async () => {
    const doc = await createDocumentTemplate(admin.token, { name: unique('doc') });
    const flow = await createFlowTemplate(admin.token, {
      name: unique('flow'),
      documents: [{ documentTemplateId: doc.id, templateId: 'D1' }],
    });
    const refused = await app.api.call('deleteDocumentTemplate', {
      token: admin.token,
      params: { documentTemplateId: doc.id },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].code).toBe('TEMPLATE_IN_USE');
    // Once the flow template no longer uses it, it can go.
    const emptied = await app.api.call('updateBusinessFlowTemplate', {
      token: admin.token,
      params: { businessFlowTemplateId: flow.id },
      body: flowBody({ lockVersion: 0, documents: [] }),
    });
    expect(emptied.body.data.attributes).toMatchObject({ documents: [], lockVersion: 1 });
    const deleted = await app.api.call('deleteDocumentTemplate', {
      token: admin.token,
      params: { documentTemplateId: doc.id },
    });
    expect(deleted.status).toBe(204);
    expect(await lastLog(app, 'document_template.deleted', doc.id)).toBeDefined();
    const gone = await app.api.call('getDocumentTemplate', {
      token: admin.token,
      params: { documentTemplateId: doc.id },
    });
    expect(gone.status).toBe(404);
  });

  it('deletes a business flow template and logs business_flow_template.deleted', async () => {
    const flow = await createFlowTemplate(admin.token, { name: unique('flow') });
    const deleted = await app.api.call('deleteBusinessFlowTemplate', {
      token: admin.token,
      params: { businessFlowTemplateId: flow.id },
    });
    expect(deleted.status).toBe(204);
    expect(await lastLog(app, 'business_flow_template.deleted', flow.id)).toBeDefined();
    expect(
      (
        await app.api.call('getBusinessFlowTemplate', {
          token: admin.token,
          params: { businessFlowTemplateId: flow.id },
        })
      ).status,
    ).toBe(404);
  });

  it('lets exactly one of two concurrent flow template updates win (409 UPDATED_BY_ANOTHER_USER)', async () => {
    const flow = await createFlowTemplate(admin.token, { name: unique('flow') });
    const update = (comment: string) =>
      app.api.call('updateBusinessFlowTemplate', {
        token: admin.token,
        params: { businessFlowTemplateId: flow.id },
        body: flowBody({ lockVersion: 0, comment }),
      });
    const results = await Promise.all([update('A'), update('B')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
  });
});

describe('template permissions', () => {
  it('lets every member read templates but answers 403 FUNCTION_NOT_PERMITTED to non-administrators on writes', async () => {
    const doc = await createDocumentTemplate(admin.token, { name: unique('doc') });
    const flow = await createFlowTemplate(admin.token, { name: unique('flow') });
    const token = await memberToken(app, admin.organizationId);
    expect((await app.api.call('listDocumentTemplates', { token })).status).toBe(200);
    expect((await app.api.call('getDocumentTemplate', { token, params: { documentTemplateId: doc.id } })).status).toBe(
      200,
    );
    expect((await app.api.call('listBusinessFlowTemplates', { token })).status).toBe(200);
    expect(
      (await app.api.call('getBusinessFlowTemplate', { token, params: { businessFlowTemplateId: flow.id } })).status,
    ).toBe(200);
    const writes = [
      await app.api.call('createDocumentTemplate', { token, body: docBody({ name: unique('doc') }) }),
      await app.api.call('updateDocumentTemplate', {
        token,
        params: { documentTemplateId: doc.id },
        body: docBody({ lockVersion: 0, name: 'x' }),
      }),
      await app.api.call('deleteDocumentTemplate', { token, params: { documentTemplateId: doc.id } }),
      await app.api.call('createBusinessFlowTemplate', { token, body: flowBody({ name: unique('flow') }) }),
      await app.api.call('updateBusinessFlowTemplate', {
        token,
        params: { businessFlowTemplateId: flow.id },
        body: flowBody({ lockVersion: 0, name: 'x' }),
      }),
      await app.api.call('deleteBusinessFlowTemplate', { token, params: { businessFlowTemplateId: flow.id } }),
    ];
    expect(writes.map((r) => [r.status, r.body.errors[0].code])).toEqual(
      Array.from({ length: 6 }, () => [403, 'FUNCTION_NOT_PERMITTED']),
    );
  });
});
