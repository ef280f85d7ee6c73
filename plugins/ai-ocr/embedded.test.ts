/*
 * AI-OCR's transactions on the embedded database (the pglite-smoke project runs this file on PGlite, whose one
 * connection a transaction holds): a reading queued by the clean scan and read by the job, and a manual reading
 * whose allowance check runs inside the request's transaction, under the organization's advisory lock.
 * plugins/ai-ocr/plugin.test.ts covers the behaviour in full on PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { markScanned, uploadPdf } from '../../tests/helpers/documents.ts';
import { CONTRACT_POSITIONS, contractPdf } from '../../tests/helpers/ocr-documents.ts';
import { seedTaskWorld, type TaskWorld } from '../../tests/helpers/tasks.ts';

vi.setConfig({ testTimeout: 60_000 });

let app: TestApp;
let w: TaskWorld;

beforeAll(async () => {
  app = await startApp({ plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)) });
  w = await seedTaskWorld(app, { plan: 'standard' });
  await app.service.deps
    .knex('organizations')
    .where({ id: w.ownerA.organizationId })
    .update({ options: ['aiOcr'] });
});
afterAll(() => app?.close());

const status = async (documentId: string) =>
  (await app.api.call('getDocumentOcr', { token: w.ownerA.token, params: { documentId } })).body.data.attributes;

describe('ai-ocr on the embedded database', () => {
  it('reads an upload after its clean scan, and a document on demand within the allowance', async () => {
    const property = await app.api.call('createProperty', {
      token: w.ownerA.token,
      body: { data: { type: 'Property', attributes: { name: '取引先', scope: 20, inputType: 20 } } },
    });
    const template = await app.api.call('createDocumentTemplate', {
      token: w.ownerA.token,
      body: {
        data: {
          type: 'DocumentTemplate',
          attributes: {
            name: '読み取り位置つき',
            readingPositions: [{ propertyId: property.body.data.id, ...CONTRACT_POSITIONS.party }],
          },
        },
      },
    });
    const bytes = await contractPdf({ date: '2026年4月1日', amount: '1,000円', party: '株式会社山田商事' });
    const document = await uploadPdf(app, w.ownerA.token, w.flowId, {
      bytes,
      documentTemplateId: template.body.data.id,
    });
    await markScanned(app, document.id, 'clean');
    await vi.waitFor(async () => expect((await status(document.id)).status).toBe('done'), {
      timeout: 45_000,
      interval: 250,
    });
    expect((await status(document.id)).proposals[0]).toMatchObject({ value: '株式会社山田商事', source: 'text' });

    const started = await app.api.call('startDocumentOcr', {
      token: w.ownerA.token,
      params: { documentId: document.id },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    await vi.waitFor(async () => expect((await status(document.id)).status).toBe('done'), {
      timeout: 45_000,
      interval: 250,
    });
    const settings = await app.api.call('getOcrSettings', { token: w.ownerA.token });
    expect(settings.body.data.attributes.pagesUsed).toBe(2);
  });
});
