/*
 * The ai-ocr plugin through the API, with real poppler and Tesseract: reading positions on templates (checked,
 * with a sample PDF), gating by the paid option, the reading queued by a clean scan only (a file being scanned or
 * refused by the scan is never read), proposals with raw text, source and confidence, nothing written before a
 * person decides, accept / edit / reject, the auto-accept setting, the monthly page allowance (skipped and refused
 * with its message, pages counted in usage), partners and other organizations, and a crashing Tesseract leaving
 * the document usable.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { tokyoMonth } from '../../core/modules/usage/counters.ts';
import { memberToken, signedInOwner } from '../../tests/helpers/accounts.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { callMultipart, markScanned, uploadPdf } from '../../tests/helpers/documents.ts';
import { CONTRACT_POSITIONS, contractPdf, type ContractValues } from '../../tests/helpers/ocr-documents.ts';
import { seedTaskWorld, type TaskWorld } from '../../tests/helpers/tasks.ts';
import { PLAN_CATALOG } from '../../core/access/plans.ts';

/** The standard plan's monthly AI-OCR pages (config/plans.json). */
const ALLOWANCE = PLAN_CATALOG.options.aiOcr!.monthlyAllowance.standard;

vi.setConfig({ testTimeout: 60_000 });

const PLUGINS = BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));
const errorOf = (body: any) => body.errors?.[0];
const VALUES: ContractValues = { date: '令和8年4月1日', amount: '¥1,234,000（税込）', party: '株式会社山田商事' };

let app: TestApp;
let folder: string;
/** While this file exists, the Tesseract the service runs crashes (SIGSEGV) instead of reading. */
let crashMarker: string;
let w: TaskWorld;
const prop = {} as Record<'date' | 'amount' | 'party' | 'kind', string>;
let templateId: string;

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'keiyaku-ocr-test-'));
  crashMarker = path.join(folder, 'crash');
  const tesseract = path.join(folder, 'tesseract');
  await writeFile(tesseract, `#!/bin/sh\nif [ -e '${crashMarker}' ]; then kill -SEGV $$; fi\nexec tesseract "$@"\n`);
  await chmod(tesseract, 0o755);
  app = await startApp({
    env: { KEIYAKU_PLUGIN_AIOCR_TESSERACT: tesseract },
    plugins: PLUGINS,
  });
  w = await seedTaskWorld(app, { plan: 'standard' });
  await app.service.deps
    .knex('organizations')
    .where({ id: w.ownerA.organizationId })
    .update({ options: ['aiOcr'] });
  const property = async (name: string, attributes: Record<string, unknown>) => {
    const response = await app.api.call('createProperty', {
      token: w.ownerA.token,
      body: { data: { type: 'Property', attributes: { name, scope: 20, ...attributes } } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data.id as string;
  };
  prop.date = await property('契約日', { inputType: 30 });
  prop.amount = await property('契約金額', { inputType: 10, numberUnit: 20, integerLength: 12 });
  prop.party = await property('取引先', { inputType: 20, publicToClient: true, editableByClient: true });
  prop.kind = await property('区分', { inputType: 40, options: [{ label: '売上' }, { label: '仕入' }] });
  templateId = await createTemplate(w.ownerA.token, '業務委託契約（AI-OCR）');
});
afterAll(async () => {
  await app?.close();
  await rm(folder, { recursive: true, force: true });
});

const positions = (keys: (keyof ContractValues)[] = ['date', 'amount', 'party']) =>
  keys.map((key) => ({
    propertyId: prop[key],
    ...CONTRACT_POSITIONS[key],
    hint: key === 'date' ? '令和8年4月1日' : null,
  }));

async function createTemplate(token: string, name: string, readingPositions = positions()) {
  const response = await app.api.call('createDocumentTemplate', {
    token,
    body: { data: { type: 'DocumentTemplate', attributes: { name, readingPositions } } },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data.id as string;
}

async function upload(values: ContractValues, options: { scan?: boolean; template?: string | null } = {}) {
  const document = await uploadPdf(app, w.ownerA.token, w.flowId, {
    bytes: await contractPdf(values, { scan: options.scan }),
    name: '業務委託契約書',
    ...(options.template === null ? {} : { documentTemplateId: options.template ?? templateId }),
  });
  return document.id;
}

const ocrOf = (documentId: string, token = w.ownerA.token) =>
  app.api.call('getDocumentOcr', { token, params: { documentId } });

async function settled(documentId: string) {
  let last: any;
  await vi.waitFor(
    async () => {
      last = (await ocrOf(documentId)).body.data.attributes;
      if (!['done', 'failed', 'skipped'].includes(last.status)) throw new Error(`still ${last.status}`);
    },
    { timeout: 45_000, interval: 250 },
  );
  return last;
}

const decide = (documentId: string, decisions: unknown[], token = w.ownerA.token) =>
  app.api.call('decideDocumentOcr', {
    token,
    params: { documentId },
    body: { data: { attributes: { decisions } } },
  });

async function documentValues(documentId: string) {
  const response = await app.api.call('getDocument', { token: w.ownerA.token, params: { documentId } });
  return Object.fromEntries(
    (response.body.data.attributes.properties as { propertyId: string; value: string }[]).map((p) => [
      p.propertyId,
      p.value,
    ]),
  );
}

const byProperty = (reading: any, propertyId: string) =>
  reading.proposals.find((p: any) => p.propertyId === propertyId);

describe('reading positions on document templates', () => {
  it('are stored with the template, each naming a document-scope property once', async () => {
    const template = await app.api.call('getDocumentTemplate', {
      token: w.ownerA.token,
      params: { documentTemplateId: templateId },
    });
    expect(template.body.data.attributes.readingPositions).toEqual(positions());
    expect(template.body.data.attributes.sample).toBeNull();

    const flowScope = await app.api.call('createProperty', {
      token: w.ownerA.token,
      body: { data: { type: 'Property', attributes: { name: '案件番号', scope: 10, inputType: 20 } } },
    });
    const refused = await app.api.call('createDocumentTemplate', {
      token: w.ownerA.token,
      body: {
        data: {
          type: 'DocumentTemplate',
          attributes: {
            name: '不正な読み取り位置',
            readingPositions: [
              { propertyId: flowScope.body.data.id, ...CONTRACT_POSITIONS.date },
              { propertyId: prop.amount, ...CONTRACT_POSITIONS.amount },
              { propertyId: prop.amount, ...CONTRACT_POSITIONS.party },
            ],
          },
        },
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['REFERENCE_NOT_FOUND', '/data/attributes/readingPositions/0/propertyId'],
      ['READING_POSITION_DUPLICATE', '/data/attributes/readingPositions/2/propertyId'],
    ]);
  });

  it('keep a sample PDF to draw on: administrators upload it, members read it, other organizations cannot', async () => {
    const form = () => {
      const data = new FormData();
      data.append('file', new Blob([new Uint8Array(Buffer.from('%PDF-1.7 not really'))]), 'sample.pdf');
      return data;
    };
    const broken = await callMultipart(app, 'uploadDocumentTemplateSample', {
      token: w.ownerA.token,
      params: { documentTemplateId: templateId },
      form: form(),
    });
    expect(broken.status).toBe(422);

    const missing = await app.api.call('downloadDocumentTemplateSample', {
      token: w.ownerA.token,
      params: { documentTemplateId: templateId },
    });
    expect(errorOf(missing.body).code).toBe('TEMPLATE_SAMPLE_NOT_FOUND');

    const pdf = await contractPdf(VALUES);
    const sample = new FormData();
    sample.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), '見本.pdf');
    const member = await memberToken(app, w.ownerA.organizationId);
    const byMember = await callMultipart(app, 'uploadDocumentTemplateSample', {
      token: member,
      params: { documentTemplateId: templateId },
      form: sample,
    });
    expect(byMember.status).toBe(403);
    const stored = await callMultipart(app, 'uploadDocumentTemplateSample', {
      token: w.ownerA.token,
      params: { documentTemplateId: templateId },
      form: sample,
    });
    expect(stored.status, JSON.stringify(stored.body)).toBe(200);
    expect(stored.body.data.attributes.sample).toMatchObject({ fileName: '見本.pdf', pageCount: 1, size: pdf.length });

    const read = await fetch(`${app.url}/core/v1/document-templates/${templateId}/sample`, {
      headers: { authorization: `Bearer ${member}` },
    });
    expect(read.status).toBe(200);
    expect(Buffer.from(await read.arrayBuffer()).equals(pdf)).toBe(true);

    const other = await signedInOwner(app, { plan: 'standard' });
    const foreign = await app.api.call('downloadDocumentTemplateSample', {
      token: other.token,
      params: { documentTemplateId: templateId },
    });
    expect(foreign.status).toBe(404);
  });
});

describe('reading a document', () => {
  it('reads the text layer once the scan found the file clean, and writes nothing before a person decides', async () => {
    const documentId = await upload(VALUES);
    // Being scanned: no reading yet, and asking for one is refused.
    expect((await ocrOf(documentId)).body.data.attributes.status).toBe('none');
    const early = await app.api.call('startDocumentOcr', { token: w.ownerA.token, params: { documentId } });
    expect([early.status, errorOf(early.body).code]).toEqual([409, 'DOCUMENT_BEING_SCANNED']);

    await markScanned(app, documentId, 'clean');
    const reading = await settled(documentId);
    expect(reading).toMatchObject({ status: 'done', pages: 1, progress: { pagesDone: 1, pagesTotal: 1 } });
    expect(byProperty(reading, prop.date)).toMatchObject({
      raw: '令和8年4月1日',
      value: '2026-04-01',
      source: 'text',
      status: 'proposed',
      propertyName: '契約日',
      rect: CONTRACT_POSITIONS.date,
    });
    expect(byProperty(reading, prop.amount)).toMatchObject({ value: '1234000', note: 'taxIncluded', source: 'text' });
    expect(byProperty(reading, prop.party)).toMatchObject({ value: '株式会社山田商事', source: 'text' });
    for (const proposal of reading.proposals) expect(proposal.confidence).toBeGreaterThan(0.9);
    expect(await documentValues(documentId)).toEqual({});

    const decided = await decide(documentId, [
      { proposalId: byProperty(reading, prop.date).id, action: 'accept' },
      { proposalId: byProperty(reading, prop.amount).id, action: 'edit', value: 1_100_000 },
      { proposalId: byProperty(reading, prop.party).id, action: 'reject' },
    ]);
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.data.attributes.proposals.map((p: any) => p.status).sort()).toEqual([
      'accepted',
      'edited',
      'rejected',
    ]);
    expect(await documentValues(documentId)).toEqual({ [prop.date]: '2026-04-01', [prop.amount]: '1100000' });

    const again = await decide(documentId, [{ proposalId: byProperty(reading, prop.party).id, action: 'accept' }]);
    expect([again.status, errorOf(again.body).code]).toEqual([409, 'OCR_PROPOSAL_DECIDED']);

    const logged = await app.service.deps
      .knex('operation_logs')
      .where({ action: 'document.updated', target_id: documentId })
      .first('details');
    expect(logged.details).toMatchObject({ via: 'ai-ocr' });
    const decidedLog = await app.service.deps
      .knex('operation_logs')
      .where({ action: 'ai_ocr.decided', target_id: documentId })
      .first('details');
    expect(decidedLog.details.decisions.map((d: any) => d.action)).toEqual(['accept', 'edit', 'reject']);

    const usage = await app.api.call('getUsage', { token: w.ownerA.token });
    expect(usage.body.meta.totals.ocrPages).toBeGreaterThanOrEqual(1);
  });

  it('refuses an edit the property refuses, and an accept without a value, writing nothing', async () => {
    const documentId = await upload({ ...VALUES, date: '日付未定' });
    await markScanned(app, documentId, 'clean');
    const reading = await settled(documentId);
    const date = byProperty(reading, prop.date);
    expect(date).toMatchObject({ raw: '日付未定', value: null });
    const missing = await decide(documentId, [{ proposalId: date.id, action: 'accept' }]);
    expect([missing.status, errorOf(missing.body).code]).toEqual([422, 'OCR_VALUE_MISSING']);
    const bad = await decide(documentId, [
      { proposalId: byProperty(reading, prop.party).id, action: 'accept' },
      { proposalId: date.id, action: 'edit', value: '2026-02-30' },
    ]);
    expect(bad.status).toBe(422);
    expect(errorOf(bad.body).source.pointer).toBe('/data/attributes/decisions/1/value');
    expect(await documentValues(documentId)).toEqual({});
    expect((await ocrOf(documentId)).body.data.attributes.proposals.every((p: any) => p.status === 'proposed')).toBe(
      true,
    );
    const party = byProperty(reading, prop.party).id;
    const twice = await decide(documentId, [
      { proposalId: party, action: 'accept' },
      { proposalId: party, action: 'reject' },
      { proposalId: date.id, action: 'edit' },
    ]);
    expect(twice.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['VALIDATION_FAILED', '/data/attributes/decisions/1/proposalId'],
      ['VALIDATION_FAILED', '/data/attributes/decisions/2/value'],
    ]);
    // A newer version of the file makes these proposals outdated: they are no longer the contract's values.
    const { knex } = app.service.deps;
    const v1 = await knex('document_versions').where({ document_id: documentId }).first();
    const { id: _id, ...copy } = v1;
    await knex('document_versions').insert({ ...copy, version: 2, scan_status: 'pending', created_at: new Date() });
    const outdated = await decide(documentId, [{ proposalId: party, action: 'accept' }]);
    expect([outdated.status, errorOf(outdated.body).code]).toEqual([409, 'OCR_READING_OUTDATED']);
    expect(await documentValues(documentId)).toEqual({});
  });

  it('never reads a file the malware scan refused', async () => {
    const documentId = await upload(VALUES);
    await markScanned(app, documentId, 'malicious');
    const refused = await app.api.call('startDocumentOcr', { token: w.ownerA.token, params: { documentId } });
    expect([refused.status, errorOf(refused.body).code]).toEqual([409, 'DOCUMENT_MALICIOUS']);
    // Give the job queue time to run anything that was (wrongly) queued.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await ocrOf(documentId)).body.data.attributes.status).toBe('none');
    expect(await app.service.deps.knex('ai_ocr_readings').where({ document_id: documentId })).toEqual([]);
  });

  it('reads a scan with Tesseract where there is no text layer', async () => {
    const documentId = await upload(VALUES, { scan: true });
    await markScanned(app, documentId, 'clean');
    const reading = await settled(documentId);
    expect(reading.status).toBe('done');
    expect(byProperty(reading, prop.date)).toMatchObject({ source: 'ocr', value: '2026-04-01' });
    expect(byProperty(reading, prop.party)).toMatchObject({ source: 'ocr', value: '株式会社山田商事' });
    for (const proposal of reading.proposals) expect(proposal.confidence).toBeLessThanOrEqual(1);
  });

  it('survives a crashing Tesseract: the reading fails with its code, the document stays usable, a retry reads', async () => {
    const documentId = await upload(VALUES, { scan: true });
    await writeFile(crashMarker, '');
    try {
      await markScanned(app, documentId, 'clean');
      const reading = await settled(documentId);
      expect(reading).toMatchObject({ status: 'failed', error: { code: 'OCR_ENGINE_FAILED' }, proposals: [] });
    } finally {
      await rm(crashMarker, { force: true });
    }
    const download = await fetch(`${app.url}/core/v1/documents/${documentId}/file`, {
      headers: { authorization: `Bearer ${w.ownerA.token}` },
    });
    expect(download.status).toBe(200);
    const retried = await app.api.call('startDocumentOcr', { token: w.ownerA.token, params: { documentId } });
    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect((await settled(documentId)).status).toBe('done');
  });

  it('reads any document on demand with a named template; a document without positions is refused', async () => {
    const documentId = await upload(VALUES, { template: null });
    await markScanned(app, documentId, 'clean');
    const none = await app.api.call('startDocumentOcr', { token: w.ownerA.token, params: { documentId } });
    expect([none.status, errorOf(none.body).code]).toEqual([422, 'OCR_NO_READING_POSITIONS']);
    const started = await app.api.call('startDocumentOcr', {
      token: w.ownerA.token,
      params: { documentId },
      body: { data: { attributes: { documentTemplateId: templateId } } },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.body.data.attributes.status).toBe('queued');
    const twice = await app.api.call('startDocumentOcr', { token: w.ownerA.token, params: { documentId } });
    expect([twice.status, errorOf(twice.body).code]).toEqual([409, 'OCR_ALREADY_RUNNING']);
    expect((await settled(documentId)).status).toBe('done');
  });

  it('writes values at or above the auto-accept confidence without a person, when an administrator set one', async () => {
    const member = await memberToken(app, w.ownerA.organizationId);
    const body = (autoAcceptConfidence: number | null) => ({ data: { attributes: { autoAcceptConfidence } } });
    const byMember = await app.api.call('updateOcrSettings', { token: member, body: body(0.9) });
    expect(byMember.status).toBe(403);
    const set = await app.api.call('updateOcrSettings', { token: w.ownerA.token, body: body(0.9) });
    expect(set.body.data.attributes).toMatchObject({ autoAcceptConfidence: 0.9, monthlyPageAllowance: ALLOWANCE });
    try {
      const documentId = await upload({ ...VALUES, party: '合同会社鈴木工業' });
      await markScanned(app, documentId, 'clean');
      const reading = await settled(documentId);
      expect(reading.proposals.map((p: any) => p.status)).toEqual(['auto_accepted', 'auto_accepted', 'auto_accepted']);
      expect(await documentValues(documentId)).toEqual({
        [prop.date]: '2026-04-01',
        [prop.amount]: '1234000',
        [prop.party]: '合同会社鈴木工業',
      });
    } finally {
      await app.api.call('updateOcrSettings', { token: w.ownerA.token, body: body(null) });
    }
  });

  it('skips the automatic reading and refuses a manual one past the monthly page allowance', async () => {
    const { knex } = app.service.deps;
    const month = tokyoMonth(app.clock.now());
    const key = { organization_id: w.ownerA.organizationId, month, metric: 'ocrPages' };
    const before = await knex('usage_counters').where(key).first();
    await knex('usage_counters').where(key).update({ count: ALLOWANCE });
    try {
      const documentId = await upload(VALUES);
      await markScanned(app, documentId, 'clean');
      expect(await settled(documentId)).toMatchObject({ status: 'skipped', error: { code: 'OCR_ALLOWANCE_EXCEEDED' } });
      const refused = await app.api.call('startDocumentOcr', {
        token: w.ownerA.token,
        params: { documentId },
        headers: { 'accept-language': 'ja' },
      });
      expect(refused.status).toBe(403);
      expect(errorOf(refused.body)).toMatchObject({ code: 'OCR_ALLOWANCE_EXCEEDED' });
      expect(errorOf(refused.body).title ?? errorOf(refused.body).detail).toMatch(/上限/);
      const settings = await app.api.call('getOcrSettings', { token: w.ownerA.token });
      expect(settings.body.data.attributes).toMatchObject({
        monthlyPageAllowance: ALLOWANCE,
        pagesUsed: ALLOWANCE,
        month,
      });
    } finally {
      await knex('usage_counters').where(key).update({ count: before.count });
    }
  });
});

describe('who may see and decide', () => {
  it('partners see public properties only and decide only those editable by clients; others see nothing', async () => {
    const documentId = await upload(VALUES);
    await markScanned(app, documentId, 'clean');
    const reading = await settled(documentId);

    // The partner's own plan decides whether it sees readings at all; with the option, public properties only.
    const withoutOption = await ocrOf(documentId, w.ownerB.token);
    expect([withoutOption.status, errorOf(withoutOption.body).code]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
    await app.service.deps
      .knex('organizations')
      .where({ id: w.ownerB.organizationId })
      .update({ plan: 'standard', options: ['aiOcr'] });
    const partner = await ocrOf(documentId, w.ownerB.token);
    expect(partner.status).toBe(200);
    expect(partner.body.data.attributes.proposals.map((p: any) => p.propertyId)).toEqual([prop.party]);
    const start = await app.api.call('startDocumentOcr', { token: w.ownerB.token, params: { documentId } });
    expect(start.status).toBe(403);
    // B takes part without edit rights: deciding, even rejecting, is changing the document's values.
    const party = byProperty(reading, prop.party).id;
    const rejected = await decide(documentId, [{ proposalId: party, action: 'reject' }], w.ownerB.token);
    expect([rejected.status, errorOf(rejected.body).code]).toEqual([403, 'WORKSPACE_EDIT_NOT_ALLOWED']);
    // With edit rights, B decides the public property editable by clients, and cannot name a hidden one.
    const { knex } = app.service.deps;
    const participant = { workspace_id: w.workspaceId, partner_organization_id: w.ownerB.organizationId };
    await knex('workspace_participants').where(participant).update({ is_editable: true });
    try {
      const hidden = await decide(
        documentId,
        [{ proposalId: byProperty(reading, prop.date).id, action: 'accept' }],
        w.ownerB.token,
      );
      expect([hidden.status, errorOf(hidden.body).code]).toEqual([422, 'REFERENCE_NOT_FOUND']);
      const accepted = await decide(documentId, [{ proposalId: party, action: 'accept' }], w.ownerB.token);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect(await documentValues(documentId)).toEqual({ [prop.party]: '株式会社山田商事' });
    } finally {
      await knex('workspace_participants').where(participant).update({ is_editable: false });
    }

    // Another organization with the option: the document does not exist for it.
    const stranger = await signedInOwner(app, { plan: 'standard' });
    await app.service.deps
      .knex('organizations')
      .where({ id: stranger.organizationId })
      .update({ options: ['aiOcr'] });
    expect((await ocrOf(documentId, stranger.token)).status).toBe(404);
    const proposalId = byProperty(reading, prop.date).id;
    expect((await decide(documentId, [{ proposalId, action: 'accept' }], stranger.token)).status).toBe(404);
    expect((await app.api.call('startDocumentOcr', { token: stranger.token, params: { documentId } })).status).toBe(
      404,
    );
    // Nor can A read its own document at another organization's reading positions.
    const strangersTemplate = await createTemplate(stranger.token, '他社のテンプレート', []);
    const crossed = await app.api.call('startDocumentOcr', {
      token: w.ownerA.token,
      params: { documentId },
      body: { data: { attributes: { documentTemplateId: strangersTemplate } } },
    });
    expect([crossed.status, errorOf(crossed.body).code]).toEqual([422, 'REFERENCE_NOT_FOUND']);
  });

  it('is the paid option: without it the operations are refused and nothing is read', async () => {
    const other = await seedTaskWorld(app, { plan: 'standard' });
    const refused = await app.api.call('getOcrSettings', { token: other.ownerA.token });
    expect([refused.status, errorOf(refused.body).code]).toEqual([403, 'PLAN_FEATURE_UNAVAILABLE']);
    expect(errorOf(refused.body).meta?.params ?? errorOf(refused.body).params).toMatchObject({ feature: 'aiOcr' });
    const date = await app.api.call('createProperty', {
      token: other.ownerA.token,
      body: { data: { type: 'Property', attributes: { name: '契約日', scope: 20, inputType: 30 } } },
    });
    const template = await createTemplate(other.ownerA.token, '読み取り位置つき', [
      { propertyId: date.body.data.id, ...CONTRACT_POSITIONS.date, hint: null },
    ]);
    const document = await uploadPdf(app, other.ownerA.token, other.flowId, {
      bytes: await contractPdf(VALUES),
      documentTemplateId: template,
    });
    await markScanned(app, document.id, 'clean');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await app.service.deps.knex('ai_ocr_readings').where({ document_id: document.id })).toEqual([]);
  });
});
