import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { markScanned, uploadPdf } from '../helpers/documents.ts';
import { type AdminSession, adminSession } from '../helpers/org-admin.ts';
import { corporateNumber, createWorkspace } from '../helpers/workspaces.ts';

// The cross-module proof that a partner organization reaches only what was shared with it. Organization A owns
// workspace W1, shared with partner B as NOT public (B sees only flows holding B's tasks) but editable, and W2, not
// shared at all. B's ordinary user walks the lists and the ids of everything A holds.

let app: TestApp;
let a: AdminSession;
let b: AdminSession;
let partner: { id: string; token: string };
type Key =
  | 'open'
  | 'readOnly'
  | 'secret'
  | 'w1'
  | 'w2'
  | 'sharedFlow'
  | 'sharedDocument'
  | 'otherFlow'
  | 'otherDocument'
  | 'internalFlow'
  | 'internalDocument';
const ids = {} as Record<Key, string>;

async function property(name: string, publicToClient: boolean, editableByClient: boolean) {
  const response = await app.api.call('createProperty', {
    token: a.token,
    body: {
      data: { type: 'Property', attributes: { name, inputType: 20, scope: 10, publicToClient, editableByClient } },
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id as string;
}

async function flow(workspaceId: string, name: string, properties: { propertyId: string; value: string }[] = []) {
  const response = await app.api.call('createBusinessFlow', {
    token: a.token,
    params: { workspaceId },
    body: { data: { type: 'BusinessFlow', attributes: { name, properties } } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id as string;
}

/** Gives the document an active task assigned to partner B (the tasks API has its own tests). */
async function taskForPartner(documentId: string) {
  const knex = app.service.deps.knex;
  await knex('documents').where({ id: documentId }).update({ current_order: 1 });
  await knex('tasks').insert({
    organization_id: a.organizationId,
    document_id: documentId,
    task_order: 1,
    type: 'read',
    assignee_kind: 'organization',
    partner_organization_id: b.organizationId,
    status: 'active',
  });
}

beforeAll(async () => {
  app = await startApp();
  a = await adminSession(app, { organizationName: '発注元株式会社', corporateNumber: corporateNumber() });
  b = await adminSession(app, { organizationName: '受注先株式会社', corporateNumber: corporateNumber() });
  await app.service.deps.knex('organizations').where({ id: a.organizationId }).update({ plan: 'professional' });
  partner = await userIn(app, b.organizationId, [b.defaultGroupId]);
  ids.open = await property('公開・編集可', true, true);
  ids.readOnly = await property('公開・編集不可', true, false);
  ids.secret = await property('社外秘メモ', false, false);
  ids.w1 = (
    await createWorkspace(app, a.token, [
      { kind: 'group', groupId: a.defaultGroupId },
      { kind: 'organization', organizationId: b.organizationId, isPublic: false, isEditable: true },
    ])
  ).id;
  ids.w2 = (
    await createWorkspace(app, a.token, [{ kind: 'group', groupId: a.defaultGroupId }], { name: '社内専用' })
  ).id;
  ids.sharedFlow = await flow(ids.w1, '共有フロー', [
    { propertyId: ids.open, value: '公開値' },
    { propertyId: ids.readOnly, value: '参照値' },
    { propertyId: ids.secret, value: '極秘の値' },
  ]);
  ids.sharedDocument = (await uploadPdf(app, a.token, ids.sharedFlow, { name: '共有契約書' })).id;
  await markScanned(app, ids.sharedDocument);
  await taskForPartner(ids.sharedDocument);
  ids.otherFlow = await flow(ids.w1, '非共有フロー');
  ids.otherDocument = (await uploadPdf(app, a.token, ids.otherFlow, { name: '非共有契約書' })).id;
  ids.internalFlow = await flow(ids.w2, '社内フロー');
  ids.internalDocument = (await uploadPdf(app, a.token, ids.internalFlow, { name: '社内契約書' })).id;
});
afterAll(() => app?.close());

const errorOf = (response: { status: number; body: any }) => [response.status, response.body?.errors?.[0]?.code];

describe('a partner organization sees only what is shared with it', () => {
  it('lists only the shared workspace', async () => {
    const response = await app.api.call('listWorkspaces', { token: partner.token });
    // Sign-up gave B a workspace of its own (its default group takes part); of A's only the shared one is listed.
    const ownOfB = (
      await app.service.deps.knex('workspaces').where({ organization_id: b.organizationId }).select('id')
    ).map((row: { id: string }) => row.id);
    const listed = response.body.data.map((w: { id: string }) => w.id);
    expect(ownOfB).toHaveLength(1);
    expect(listed.filter((id: string) => !ownOfB.includes(id))).toEqual([ids.w1]);
    expect(JSON.stringify(response.body)).not.toContain('社内専用');
  });

  it('lists only the business flows holding its tasks in a workspace not public to it', async () => {
    const response = await app.api.call('listBusinessFlows', { token: partner.token });
    expect(response.status).toBe(200);
    expect(response.body.data.map((f: { id: string }) => f.id)).toEqual([ids.sharedFlow]);
  });

  it('lists only its own executable tasks', async () => {
    const response = await app.api.call('listMyTasks', { token: partner.token });
    expect(response.status).toBe(200);
    const text = JSON.stringify(response.body);
    expect(text).toContain(ids.sharedDocument);
    expect(text).not.toContain(ids.otherDocument);
    expect(text).not.toContain(ids.internalDocument);
  });

  it('gets 404 NOT_FOUND for the unshared workspace and for flows and documents it was not given', async () => {
    const calls = [
      app.api.call('getWorkspace', { token: partner.token, params: { workspaceId: ids.w2 } }),
      app.api.call('getBusinessFlow', { token: partner.token, params: { businessFlowId: ids.internalFlow } }),
      app.api.call('getBusinessFlow', { token: partner.token, params: { businessFlowId: ids.otherFlow } }),
      app.api.call('listBusinessFlowDocuments', {
        token: partner.token,
        params: { businessFlowId: ids.internalFlow },
      }),
      app.api.call('getDocument', { token: partner.token, params: { documentId: ids.internalDocument } }),
      app.api.call('getDocument', { token: partner.token, params: { documentId: ids.otherDocument } }),
      app.api.call('downloadDocument', { token: partner.token, params: { documentId: ids.internalDocument } }),
      app.api.call('createBusinessFlow', {
        token: partner.token,
        params: { workspaceId: ids.w2 },
        body: { data: { type: 'BusinessFlow', attributes: { name: '侵入' } } },
      }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(errorOf(response)).toEqual([404, 'NOT_FOUND']);
      expect(JSON.stringify(response.body)).not.toMatch(/社内|非共有/);
    }
  });

  it('reads the shared flow and document without custom properties that are not public to clients', async () => {
    const shared = await app.api.call('getBusinessFlow', {
      token: partner.token,
      params: { businessFlowId: ids.sharedFlow },
    });
    expect(shared.status).toBe(200);
    const properties = shared.body.data.attributes.properties as { propertyId: string; editable?: boolean }[];
    expect(properties.map((p) => p.propertyId).sort()).toEqual([ids.open, ids.readOnly].sort());
    expect(properties.find((p) => p.propertyId === ids.open)?.editable).toBe(true);
    expect(properties.find((p) => p.propertyId === ids.readOnly)?.editable).toBe(false);
    expect(JSON.stringify(shared.body)).not.toMatch(/社外秘|極秘/);
    const document = await app.api.call('getDocument', {
      token: partner.token,
      params: { documentId: ids.sharedDocument },
    });
    expect(document.status).toBe(200);
    expect(JSON.stringify(document.body)).not.toMatch(/社外秘|極秘/);
  });

  it('cannot change a property that is not editable by clients, nor one hidden from them; may change an editable one', async () => {
    const change = async (propertyId: string, value: string) => {
      const current = await app.api.call('getBusinessFlow', {
        token: partner.token,
        params: { businessFlowId: ids.sharedFlow },
      });
      return app.api.call('updateBusinessFlow', {
        token: partner.token,
        params: { businessFlowId: ids.sharedFlow },
        body: {
          data: {
            type: 'BusinessFlow',
            attributes: { lockVersion: current.body.data.attributes.lockVersion, properties: [{ propertyId, value }] },
          },
        },
      });
    };
    const readOnly = await change(ids.readOnly, '書換え');
    expect(readOnly.status).toBeGreaterThanOrEqual(403);
    expect(readOnly.status).toBeLessThan(500);
    const hidden = await change(ids.secret, '書換え');
    expect(hidden.status).toBeGreaterThanOrEqual(403);
    expect(hidden.status).toBeLessThan(500);
    const values = await app.service.deps
      .knex('property_values')
      .whereIn('property_id', [ids.readOnly, ids.secret])
      .select('*');
    expect(JSON.stringify(values)).not.toContain('書換え');
    const open = await change(ids.open, '取引先が更新');
    expect(open.status, JSON.stringify(open.body)).toBe(200);
  });

  it('cannot manage the shared workspace or its participants (403 WORKSPACE_EDIT_NOT_ALLOWED)', async () => {
    const response = await app.api.call('updateWorkspace', {
      token: partner.token,
      params: { workspaceId: ids.w1 },
      body: { data: { type: 'Workspace', attributes: { lockVersion: 0, mailNotification: false } } },
    });
    expect(errorOf(response)).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
  });
});
