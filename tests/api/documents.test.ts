import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_SCAN_JOB } from '../../core/files/scan.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { CORPUS } from '../fixtures/malicious/corpus.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { insertTask, seedBusinessFlow } from '../helpers/business-flows.ts';
import { callMultipart, markScanned, tryUpload, uploadForm, uploadPdf } from '../helpers/documents.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';
import { adminSession, lastLog } from '../helpers/org-admin.ts';
import { buildPdf } from '../helpers/pdf.ts';

let app: TestApp;
// The malware-scan plugin stays off here, so a version stays "pending" until a test records its verdict.
beforeAll(async () => {
  app = await startApp({ plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)) });
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const MB = 1024 * 1024;

/** An organization with a workspace (its default group editable) and one business flow in progress. */
async function ownerWithFlow(
  options: Parameters<typeof seedBusinessFlow>[1] extends infer I ? Partial<I> : never = {},
) {
  // Professional: custom properties and templates are available.
  const admin = await adminSession(app, { plan: 'professional' });
  const seeded = await seedBusinessFlow(app, {
    organizationId: admin.organizationId,
    groupId: admin.defaultGroupId,
    createdBy: admin.ownerId,
    ...options,
  });
  return { admin, ...seeded };
}

async function documentRows(businessFlowId: string) {
  return knex()('documents').where({ business_flow_id: businessFlowId });
}

function blobFiles(): string[] {
  const root = path.join(app.dataDir, 'blobs');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
}

const download = (token: string, documentId: string, version?: number) =>
  app.api.call('downloadDocument', {
    token,
    params: { documentId },
    ...(version ? { query: { version } } : {}),
  });

const cancelBody = (lockVersion: number, reason?: string) => ({
  data: { type: 'DocumentCancel', attributes: { lockVersion, ...(reason === undefined ? {} : { reason }) } },
});
const updateBody = (attributes: Record<string, unknown>) => ({ data: { type: 'Document', attributes } });

describe('uploadDocument', () => {
  it('stores an uploaded PDF as version 1 pending its scan, with blob, event, log, usage and a scan job', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const pdf = await buildPdf({ pages: 3 });
    const jobsBefore = Object.values(await app.service.deps.jobs.counts(DOCUMENT_SCAN_JOB)).reduce((a, b) => a + b, 0);
    const document = await uploadPdf(app, admin.token, businessFlowId, {
      bytes: pdf,
      fileName: '売買契約書.pdf',
      documentType: 'invoice',
      systemLinkId: 'DOC-1',
    });
    expect(document.attributes).toMatchObject({
      name: '売買契約書',
      documentType: 'invoice',
      status: 'in_progress',
      systemLinkId: 'DOC-1',
      canRename: true,
      canEdit: true,
      lockVersion: 0,
      currentVersion: { version: 1, fileName: '売買契約書.pdf', size: pdf.length, pageCount: 3, scanStatus: 'pending' },
    });
    const sha = document.attributes.currentVersion.sha256 as string;
    expect(existsSync(path.join(app.dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha))).toBe(true);
    expect(document.attributes.events.map((e: { kind: string }) => e.kind)).toEqual(['uploaded']);
    expect(await lastLog(app, 'document.uploaded', document.id)).toMatchObject({ actor_user_id: admin.ownerId });
    const usage = await knex()('usage_counters').where({ organization_id: admin.organizationId, metric: 'documents' });
    expect(usage.map((u) => Number(u.count))).toEqual([1]);
    const jobsAfter = Object.values(await app.service.deps.jobs.counts(DOCUMENT_SCAN_JOB)).reduce((a, b) => a + b, 0);
    expect(jobsAfter).toBe(jobsBefore + 1);
  });

  it('defaults the document name to the file name without .pdf', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId, { fileName: 'NDA 2026.PDF' });
    expect(document.attributes.name).toBe('NDA 2026');
    const named = await uploadPdf(app, admin.token, businessFlowId, { fileName: 'x.pdf', name: '秘密保持契約書' });
    expect(named.attributes.name).toBe('秘密保持契約書');
  });

  it('rejects a file name over 100 characters (422 FILE_NAME_TOO_LONG) and stores nothing', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const result = await tryUpload(app, admin.token, businessFlowId, { fileName: `${'あ'.repeat(97)}.pdf` });
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({ code: 'FILE_NAME_TOO_LONG', source: { pointer: '/file' } });
    expect(await documentRows(businessFlowId)).toHaveLength(0);
    const ok = await tryUpload(app, admin.token, businessFlowId, { fileName: `${'あ'.repeat(96)}.pdf` });
    expect(ok.status).toBe(201);
  });

  it('rejects a document name over 100 characters (422 FILE_NAME_TOO_LONG at /name)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const result = await tryUpload(app, admin.token, businessFlowId, { name: 'n'.repeat(101) });
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({ code: 'FILE_NAME_TOO_LONG', source: { pointer: '/name' } });
  });

  it('rejects a form without a file part (422 FILE_REQUIRED)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const form = new FormData();
    form.append('name', 'no file');
    const result = await callMultipart(app, 'uploadDocument', { token: admin.token, params: { businessFlowId }, form });
    expect(result.status).toBe(422);
    expect(result.body.errors[0].code).toBe('FILE_REQUIRED');
  });

  it('rejects a PNG where only PDFs are allowed (422 FILE_TYPE_NOT_ALLOWED) and stores nothing', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
    const blobsBefore = blobFiles().length;
    const result = await tryUpload(app, admin.token, businessFlowId, { bytes: png, fileName: 'scan.pdf' });
    expect(result.status).toBe(422);
    expect(result.body.errors[0].code).toBe('FILE_TYPE_NOT_ALLOWED');
    expect(await documentRows(businessFlowId)).toHaveLength(0);
    expect(blobFiles()).toHaveLength(blobsBefore);
  });

  it('refuses a 31 MB file (413 FILE_TOO_LARGE, maxMb 30): no row, no version, no blob', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const blobsBefore = blobFiles().length;
    const versionsBefore = Number((await knex()('document_versions').count({ n: '*' }))[0]!.n);
    const big = Buffer.concat([await buildPdf(), Buffer.alloc(31 * MB, 0x20)]);
    const result = await tryUpload(app, admin.token, businessFlowId, { bytes: big });
    expect(result.status).toBe(413);
    expect(result.body.errors[0].code).toBe('FILE_TOO_LARGE');
    expect(result.body.errors[0].detail ?? result.body.errors[0].title).toMatch(/30/);
    expect(await documentRows(businessFlowId)).toHaveLength(0);
    expect(Number((await knex()('document_versions').count({ n: '*' }))[0]!.n)).toBe(versionsBefore);
    expect(blobFiles()).toHaveLength(blobsBefore);
  });

  it('refuses a 31 MB upload sent without Content-Length while it streams (413 FILE_TOO_LARGE)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const boundary = 'keiyaku-test-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\n` +
        'Content-Type: application/pdf\r\n\r\n%PDF-1.4\n',
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const chunk = Buffer.alloc(MB, 0x20);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(head);
        if (sent < 31) controller.enqueue(chunk);
        else {
          controller.enqueue(tail);
          controller.close();
        }
        sent += 1;
      },
    });
    const response = await fetch(`${app.url}/core/v1/business-flows/${businessFlowId}/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      duplex: 'half',
    } as RequestInit);
    const result = (await response.json()) as { errors: { code: string }[] };
    expect(response.status).toBe(413);
    expect(result.errors[0]!.code).toBe('FILE_TOO_LARGE');
    expect(await documentRows(businessFlowId)).toHaveLength(0);
  });

  it('refuses every file of the malicious corpus with its own code and stores nothing', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const blobsBefore = blobFiles().length;
    for (const entry of CORPUS) {
      const result = await tryUpload(app, admin.token, businessFlowId, {
        bytes: await entry.bytes(),
        fileName: entry.fileName,
      });
      expect([result.status, result.body.errors[0].code], entry.name).toEqual([422, entry.code]);
    }
    expect(await documentRows(businessFlowId)).toHaveLength(0);
    expect(blobFiles()).toHaveLength(blobsBefore);
  });

  it('refuses an upload into a cancelled business flow (409 BUSINESS_FLOW_CANCELLED)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow({ status: 'cancelled' });
    const result = await tryUpload(app, admin.token, businessFlowId);
    expect(result.status).toBe(409);
    expect(result.body.errors[0].code).toBe('BUSINESS_FLOW_CANCELLED');
  });

  it('refuses an upload by a participant without edit rights (403 WORKSPACE_EDIT_NOT_ALLOWED)', async () => {
    const partner = await adminSession(app);
    const { businessFlowId } = await ownerWithFlow({
      partner: { organizationId: partner.organizationId, isPublic: true, isEditable: false },
    });
    const result = await tryUpload(app, partner.token, businessFlowId);
    expect(result.status).toBe(403);
    expect(result.body.errors[0].code).toBe('WORKSPACE_EDIT_NOT_ALLOWED');
  });

  it('hides a flow of a workspace the caller does not take part in (404 NOT_FOUND)', async () => {
    const stranger = await adminSession(app);
    const { businessFlowId } = await ownerWithFlow();
    const result = await tryUpload(app, stranger.token, businessFlowId);
    expect(result.status).toBe(404);
  });

  it('refuses a JSON body on the multipart upload (415 UNSUPPORTED_MEDIA_TYPE)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const result = await app.api.call('uploadDocument', {
      token: admin.token,
      params: { businessFlowId },
      body: { data: { type: 'Document', attributes: {} } },
    });
    expect(result.status).toBe(415);
    expect(result.body.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('rejects a systemLinkId already used in the organization (422 SYSTEM_LINK_ID_TAKEN)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    await uploadPdf(app, admin.token, businessFlowId, { systemLinkId: 'DUP-1' });
    const result = await tryUpload(app, admin.token, businessFlowId, { systemLinkId: 'DUP-1' });
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({ code: 'SYSTEM_LINK_ID_TAKEN', source: { pointer: '/systemLinkId' } });
  });
});

describe('downloadDocument', () => {
  it('refuses to download while the version is being scanned (409 DOCUMENT_BEING_SCANNED)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    const result = await download(admin.token, document.id);
    expect(result.status).toBe(409);
    expect(result.body.errors[0].code).toBe('DOCUMENT_BEING_SCANNED');
  });

  it('downloads the bytes after a clean verdict, with an RFC 5987 file name', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const pdf = await buildPdf({ text: 'download me' });
    const document = await uploadPdf(app, admin.token, businessFlowId, { bytes: pdf, fileName: '契約書 A.pdf' });
    await markScanned(app, document.id, 'clean');
    const response = await fetch(`${app.url}/core/v1/documents/${document.id}/file`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="___ A.pdf"; filename*=UTF-8''${encodeURIComponent('契約書 A.pdf')}`,
    );
    expect(Buffer.from(await response.arrayBuffer())).toEqual(pdf);
    const checked = await download(admin.token, document.id);
    expect(checked.status).toBe(200);
  });

  it('refuses a malicious version (409 DOCUMENT_MALICIOUS) and a failed scan (409 DOCUMENT_SCAN_FAILED)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const bad = await uploadPdf(app, admin.token, businessFlowId);
    await markScanned(app, bad.id, 'malicious');
    expect((await download(admin.token, bad.id)).body.errors[0].code).toBe('DOCUMENT_MALICIOUS');
    const failed = await uploadPdf(app, admin.token, businessFlowId, { bytes: await buildPdf({ text: 'other' }) });
    await markScanned(app, failed.id, 'failed');
    expect((await download(admin.token, failed.id)).body.errors[0].code).toBe('DOCUMENT_SCAN_FAILED');
    const detail = await app.api.call('getDocument', { token: admin.token, params: { documentId: bad.id } });
    expect(detail.body.data.attributes.events.map((e: { kind: string }) => e.kind)).toEqual([
      'uploaded',
      'scan_malicious',
    ]);
    expect(await lastLog(app, 'document.scanned', bad.id)).toMatchObject({ details: { verdict: 'malicious' } });
  });
});

describe('reuploadDocument', () => {
  it('adds version 2 pending its scan and keeps version 1 downloadable', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const first = await buildPdf({ text: 'first' });
    const second = await buildPdf({ text: 'second', pages: 2 });
    const document = await uploadPdf(app, admin.token, businessFlowId, { bytes: first });
    await markScanned(app, document.id, 'malicious');
    const form = await uploadForm({ bytes: second, fileName: 'contract-v2.pdf' });
    form.append('lockVersion', '0');
    const result = await callMultipart(app, 'reuploadDocument', {
      token: admin.token,
      params: { documentId: document.id },
      form,
    });
    expect(result.status).toBe(201);
    const attributes = result.body.data.attributes;
    expect(attributes.currentVersion).toMatchObject({ version: 2, fileName: 'contract-v2.pdf', scanStatus: 'pending' });
    expect(attributes.versions.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(attributes.lockVersion).toBe(1);
    expect((await download(admin.token, document.id)).body.errors[0].code).toBe('DOCUMENT_BEING_SCANNED');
    await knex()('document_versions').where({ document_id: document.id, version: 1 }).update({ scan_status: 'clean' });
    const old = await fetch(`${app.url}/core/v1/documents/${document.id}/file?version=1`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(Buffer.from(await old.arrayBuffer())).toEqual(first);
    expect(await lastLog(app, 'document.reuploaded', document.id)).toMatchObject({ details: { version: 2 } });
  });

  it('refuses a new version once a task is completed (409 DOCUMENT_REUPLOAD_NOT_ALLOWED)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    await markScanned(app, document.id, 'clean');
    await insertTask(app, admin.organizationId, document.id, {
      groupId: admin.defaultGroupId,
      status: 'completed',
      completedBy: admin.ownerId,
    });
    const result = await callMultipart(app, 'reuploadDocument', {
      token: admin.token,
      params: { documentId: document.id },
      form: await uploadForm(),
    });
    expect(result.status).toBe(409);
    expect(result.body.errors[0].code).toBe('DOCUMENT_REUPLOAD_NOT_ALLOWED');
  });

  it('accepts a new version of a remanded document', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    await markScanned(app, document.id, 'clean');
    await insertTask(app, admin.organizationId, document.id, { groupId: admin.defaultGroupId, status: 'completed' });
    await knex()('documents').where({ id: document.id }).update({ status: 'remanded' });
    const result = await callMultipart(app, 'reuploadDocument', {
      token: admin.token,
      params: { documentId: document.id },
      form: await uploadForm({ bytes: await buildPdf({ text: 'fixed' }) }),
    });
    expect(result.status).toBe(201);
    expect(result.body.data.attributes.currentVersion.version).toBe(2);
  });
});

describe('getDocument and listBusinessFlowDocuments', () => {
  it('shows the document with its flow, workspace, versions and tasks', async () => {
    const { admin, businessFlowId, workspaceId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    await insertTask(app, admin.organizationId, document.id, { groupId: admin.defaultGroupId });
    const before = await app.api.call('getDocument', { token: admin.token, params: { documentId: document.id } });
    expect(before.body.data.attributes.tasks[0]).toMatchObject({ order: 1, type: 'approve', executableByMe: false });
    await markScanned(app, document.id);
    const detail = await app.api.call('getDocument', { token: admin.token, params: { documentId: document.id } });
    expect(detail.status).toBe(200);
    expect(detail.body.data.attributes).toMatchObject({
      businessFlow: { id: businessFlowId, status: 'in_progress' },
      workspace: { id: workspaceId },
      versions: [expect.objectContaining({ version: 1, scanStatus: 'clean' })],
      tasks: [
        expect.objectContaining({
          assignee: expect.objectContaining({ kind: 'group', id: admin.defaultGroupId }),
          executableByMe: true,
        }),
      ],
    });
    const list = await app.api.call('listBusinessFlowDocuments', {
      token: admin.token,
      params: { businessFlowId },
    });
    expect(list.body.meta.total).toBe(1);
    expect(list.body.data[0]).toMatchObject({ id: document.id, attributes: { currentVersion: { version: 1 } } });
  });

  it('lets a partner see a shared document but not rename it (403 DOCUMENT_RENAME_OWNER_ONLY)', async () => {
    const partner = await adminSession(app);
    const { admin, businessFlowId } = await ownerWithFlow({
      partner: { organizationId: partner.organizationId, isPublic: true, isEditable: true },
    });
    const document = await uploadPdf(app, admin.token, businessFlowId, { name: '発注書' });
    const seen = await app.api.call('getDocument', { token: partner.token, params: { documentId: document.id } });
    expect(seen.body.data.attributes).toMatchObject({ name: '発注書', canRename: false, canEdit: true });
    const rename = await app.api.call('updateDocument', {
      token: partner.token,
      params: { documentId: document.id },
      body: updateBody({ lockVersion: 0, name: '勝手な名前' }),
    });
    expect(rename.status).toBe(403);
    expect(rename.body.errors[0].code).toBe('DOCUMENT_RENAME_OWNER_ONLY');
  });
});

/** A document-scope (20) string property of the organization; returns its id. */
async function documentProperty(token: string, name: string, display: Record<string, boolean> = {}) {
  const created = await app.api.call('createProperty', {
    token,
    body: { data: { type: 'Property', attributes: { name, inputType: 20, scope: 20, ...display } } },
  });
  expect(created.status).toBe(201);
  return created.body.data.id as string;
}

describe('document properties', () => {
  it('stores document-scope values given at upload and shows partners only those public to clients', async () => {
    const partner = await adminSession(app);
    const { admin, businessFlowId } = await ownerWithFlow({
      partner: { organizationId: partner.organizationId, isPublic: true, isEditable: true },
    });
    const internal = await documentProperty(admin.token, '社内メモ');
    const shared = await documentProperty(admin.token, '取引先名', { publicToClient: true, editableByClient: true });
    const document = await uploadPdf(app, admin.token, businessFlowId, {
      properties: [
        { propertyId: internal, value: '値引き交渉中' },
        { propertyId: shared, value: '株式会社サンプル' },
      ],
    });
    expect(document.attributes.properties.map((p: { value: string }) => p.value).sort()).toEqual(
      ['値引き交渉中', '株式会社サンプル'].sort(),
    );
    const seen = await app.api.call('getDocument', { token: partner.token, params: { documentId: document.id } });
    expect(seen.body.data.attributes.properties).toEqual([
      expect.objectContaining({ propertyId: shared, value: '株式会社サンプル', editable: true }),
    ]);
    const hidden = await app.api.call('updateDocument', {
      token: partner.token,
      params: { documentId: document.id },
      body: updateBody({ lockVersion: 0, properties: [{ propertyId: internal, value: '覗き見' }] }),
    });
    expect(hidden.status).toBe(422);
    expect(hidden.body.errors[0].code).toBe('REFERENCE_NOT_FOUND');
    const allowed = await app.api.call('updateDocument', {
      token: partner.token,
      params: { documentId: document.id },
      body: updateBody({ lockVersion: 0, properties: [{ propertyId: shared, value: '株式会社サンプル本店' }] }),
    });
    expect(allowed.status).toBe(200);
  });

  it('rejects an invalid property value at upload with its pointer and stores no document', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const result = await tryUpload(app, admin.token, businessFlowId, {
      properties: [{ propertyId: '00000000-0000-4000-8000-000000000000', value: 'x' }],
    });
    expect(result.status).toBe(422);
    expect(result.body.errors[0]).toMatchObject({
      code: 'REFERENCE_NOT_FOUND',
      source: { pointer: '/properties/0/propertyId' },
    });
    expect(await documentRows(businessFlowId)).toHaveLength(0);
  });

  it('takes the type, properties and tasks of a document template', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const property = await documentProperty(admin.token, '案件番号');
    const [template] = await knex()('document_templates')
      .insert({
        organization_id: admin.organizationId,
        name: '見積書テンプレート',
        document_type: 'quotation',
        properties: JSON.stringify([{ propertyId: property, value: 'Q-001' }]),
        tasks: JSON.stringify([
          {
            order: 1,
            type: 'approve',
            assignee: { kind: 'group', groupId: admin.defaultGroupId },
            required: true,
            templateId: 'T-APPROVE',
          },
        ]),
      })
      .returning('id');
    const document = await uploadPdf(app, admin.token, businessFlowId, { documentTemplateId: template.id });
    expect(document.attributes).toMatchObject({
      documentType: 'quotation',
      properties: [expect.objectContaining({ propertyId: property, value: 'Q-001' })],
      currentOrder: 1,
      tasks: [
        expect.objectContaining({
          order: 1,
          type: 'approve',
          templateId: 'T-APPROVE',
          status: 'active',
          assignee: expect.objectContaining({ kind: 'group', id: admin.defaultGroupId }),
        }),
      ],
    });
  });
});

describe('updateDocument', () => {
  it('renames with the lockVersion and logs the change', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId, { name: '旧名' });
    const result = await app.api.call('updateDocument', {
      token: admin.token,
      params: { documentId: document.id },
      body: updateBody({ lockVersion: 0, name: '新名', documentType: 'quotation' }),
    });
    expect(result.status).toBe(200);
    expect(result.body.data.attributes).toMatchObject({ name: '新名', documentType: 'quotation', lockVersion: 1 });
    expect(await lastLog(app, 'document.updated', document.id)).toMatchObject({
      details: { before: { name: '旧名' }, after: { name: '新名' } },
    });
  });

  it('lets exactly one of two concurrent updates with the same lockVersion win (the other 409)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    const update = (name: string) =>
      app.api.call('updateDocument', {
        token: admin.token,
        params: { documentId: document.id },
        body: updateBody({ lockVersion: 0, name }),
      });
    const results = await Promise.all([update('A案'), update('B案')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    const row = await knex()('documents').where({ id: document.id }).first();
    expect(row.lock_version).toBe(1);
  });

  it('keeps the name of a cancelled document (409 DOCUMENT_NOT_IN_PROGRESS)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    await app.api.call('cancelDocument', {
      token: admin.token,
      params: { documentId: document.id },
      body: cancelBody(0, '条件変更'),
    });
    const result = await app.api.call('updateDocument', {
      token: admin.token,
      params: { documentId: document.id },
      body: updateBody({ lockVersion: 1, name: 'after cancel' }),
    });
    expect(result.status).toBe(409);
    expect(result.body.errors[0].code).toBe('DOCUMENT_NOT_IN_PROGRESS');
  });
});

describe('cancelDocument', () => {
  it('requires a reason (422 DOCUMENT_CANCEL_COMMENT_REQUIRED)', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    for (const reason of [undefined, '   ']) {
      const result = await app.api.call('cancelDocument', {
        token: admin.token,
        params: { documentId: document.id },
        body: cancelBody(0, reason),
      });
      expect(result.status).toBe(422);
      expect(result.body.errors[0]).toMatchObject({
        code: 'DOCUMENT_CANCEL_COMMENT_REQUIRED',
        source: { pointer: '/data/attributes/reason' },
      });
    }
  });

  it('cancels with the reason, cancels its open tasks and keeps its data', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const document = await uploadPdf(app, admin.token, businessFlowId);
    await insertTask(app, admin.organizationId, document.id, { groupId: admin.defaultGroupId });
    const result = await app.api.call('cancelDocument', {
      token: admin.token,
      params: { documentId: document.id },
      body: cancelBody(0, '取引中止のため'),
    });
    expect(result.status).toBe(200);
    expect(result.body.data.attributes).toMatchObject({
      status: 'cancelled',
      cancelComment: '取引中止のため',
      tasks: [expect.objectContaining({ status: 'cancelled' })],
      versions: [expect.objectContaining({ version: 1 })],
    });
    expect(result.body.data.attributes.events.at(-1)).toMatchObject({ kind: 'cancelled', reason: '取引中止のため' });
    expect(await lastLog(app, 'document.cancelled', document.id)).toMatchObject({
      details: { reason: '取引中止のため' },
    });
    // The cancel mail goes to the parties of the flow (here the group's member, who also created the flow).
    const mail = await waitForMail(
      app,
      (m) => recipientOf(m).includes(admin.email) && /取り消されました/.test(m.subject ?? ''),
    );
    expect(mail.text).toContain('取引中止のため');
  });

  it('completes an auto-completing flow when the last open document is cancelled', async () => {
    const { admin, businessFlowId } = await ownerWithFlow();
    const done = await uploadPdf(app, admin.token, businessFlowId);
    await knex()('documents').where({ id: done.id }).update({ status: 'completed', completed_at: new Date() });
    const open = await uploadPdf(app, admin.token, businessFlowId, { bytes: await buildPdf({ text: 'open' }) });
    await app.api.call('cancelDocument', {
      token: admin.token,
      params: { documentId: open.id },
      body: cancelBody(0, 'not needed'),
    });
    const flow = await knex()('business_flows').where({ id: businessFlowId }).first();
    expect(flow.status).toBe('complete');
  });
});
