/*
 * Sender-placed fields ([4/8]): boxes the sender places per sign task (PUT /documents/{id}/tasks `fields`,
 * `allowSignerPlacements`), checked against the PDF's pages, shown on the task and document resources and the
 * guest's flow, and enforced when signing (members' signTask and guests' signOneTimeTask): a placement naming a
 * field takes its page and rectangle, kinds must fit, required fields must be filled, own placements only where
 * allowed. The signed PDF validates with pdfsig and carries the signature's widget at the field's rectangle.
 */
import { PDFArray, PDFDict, PDFDocument, PDFName, type PDFNumber } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestApp } from '../helpers/app.ts';
import { insertFlow } from '../helpers/business-flows.ts';
import { guestTask, signedInGuest } from '../helpers/one-time-guests.ts';
import { confirmEmailOf, latestPdf, pdfsig, sealPng, signTaskCall } from '../helpers/signing.ts';
import {
  groupTask,
  newDocument,
  partnerTask,
  plan,
  putPlan,
  seedTaskWorld,
  startTaskApp,
  type TaskWorld,
} from '../helpers/tasks.ts';

// A guest signs in through mail round trips (pg-boss jobs): slow on a busy two-core machine.
vi.setConfig({ testTimeout: 120_000 });

let app: TestApp;
let w: TaskWorld;
beforeAll(async () => {
  app = await startTaskApp();
  w = await seedTaskWorld(app);
  for (const user of [w.userA1, w.userB]) await confirmEmailOf(app, user.id);
});
afterAll(() => app?.close());

const errorOf = (response: { status: number; body: any }) => [response.status, response.body?.errors?.[0]?.code];
const pointerOf = (response: { body: any }) => response.body?.errors?.[0]?.source?.pointer;
const pngUrl = `data:image/png;base64,${sealPng(40).toString('base64')}`;

const SIGNATURE_RECT = { x1: 320, y1: 90, x2: 420, y2: 150 };
const TEXT_RECT = { x1: 60, y1: 90, x2: 200, y2: 130 };
const PARTNER_RECT = { x1: 320, y1: 200, x2: 420, y2: 260 };

/** The /Rect of every signature widget of page 1, in file order. */
async function signatureWidgetRects(pdf: Uint8Array): Promise<number[][]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const annots = doc.getPage(0).node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  const rects: number[][] = [];
  for (const ref of annots?.asArray() ?? []) {
    const annot = doc.context.lookup(ref, PDFDict);
    const isWidget = annot.get(PDFName.of('Subtype')) === PDFName.of('Widget');
    const isSignature = annot.get(PDFName.of('FT')) === PDFName.of('Sig');
    if (!isWidget || !isSignature) continue;
    const rect = annot.lookup(PDFName.of('Rect'), PDFArray);
    rects.push(rect.asArray().map((n) => (n as PDFNumber).asNumber()));
  }
  return rects;
}

describe('fields on the task plan', () => {
  let documentId: string;
  let tasks: Awaited<ReturnType<typeof plan>>;

  beforeAll(async () => {
    const flowId = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, { name: '署名欄のフロー' });
    documentId = await newDocument(app, w.ownerA.token, flowId);
    tasks = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, {
        fields: [
          { kind: 'signature', page: 1, rect: SIGNATURE_RECT, label: '甲' },
          { kind: 'text', page: 1, rect: TEXT_RECT, required: false },
        ],
        allowSignerPlacements: false,
      } as never),
      partnerTask(2, 'sign', w.ownerB.organizationId, {
        fields: [{ kind: 'seal', page: 1, rect: PARTNER_RECT, label: '乙' }],
      } as never),
      groupTask(3, 'read', w.g2),
    ]);
  });

  it('are stored and shown on the task and document resources', async () => {
    expect(tasks[0]!.attributes.fields).toEqual([
      { id: expect.any(String), kind: 'signature', page: 1, rect: SIGNATURE_RECT, required: true, label: '甲' },
      { id: expect.any(String), kind: 'text', page: 1, rect: TEXT_RECT, required: false, label: null },
    ]);
    expect(tasks[0]!.attributes.allowSignerPlacements).toBe(false);
    expect(tasks[1]!.attributes).toMatchObject({
      allowSignerPlacements: true,
      fields: [{ kind: 'seal', label: '乙' }],
    });
    expect(tasks[2]!.attributes).toMatchObject({ allowSignerPlacements: true, fields: [] });
    const document = await app.api.call('getDocument', { token: w.userB.token, params: { documentId } });
    expect(document.status).toBe(200);
    const shown = document.body.data.attributes.tasks.find((t: any) => t.id === tasks[0]!.id);
    expect(shown.fields.map((f: any) => f.kind)).toEqual(['signature', 'text']);
    const one = await app.api.call('getDocumentTasks', { token: w.ownerA.token, params: { documentId } });
    expect(one.body.data[0].attributes.fields[0].rect).toEqual(SIGNATURE_RECT);
  });

  it('are checked against the PDF and refused on other task types', async () => {
    const otherFlow = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, { name: '検証用' });
    const other = await newDocument(app, w.ownerA.token, otherFlow);
    const withField = (field: Record<string, unknown>, type: 'sign' | 'approve' = 'sign') =>
      putPlan(app, w.ownerA.token, other, [groupTask(1, type, w.g1, { fields: [field] } as never)]);
    const page2 = await withField({ kind: 'signature', page: 2, rect: SIGNATURE_RECT });
    expect(errorOf(page2)).toEqual([422, 'SIGNING_PAGE_NOT_FOUND']);
    expect(pointerOf(page2)).toBe('/data/attributes/tasks/0/fields/0/page');
    const outside = await withField({ kind: 'signature', page: 1, rect: { x1: 500, y1: 800, x2: 700, y2: 900 } });
    expect(errorOf(outside)).toEqual([422, 'SIGNING_POSITION_OUT_OF_RANGE']);
    expect(pointerOf(outside)).toBe('/data/attributes/tasks/0/fields/0/rect');
    const upsideDown = await withField({ kind: 'text', page: 1, rect: { x1: 200, y1: 100, x2: 100, y2: 150 } });
    expect(errorOf(upsideDown)).toEqual([422, 'SIGNING_POSITION_OUT_OF_RANGE']);
    const approve = await withField({ kind: 'signature', page: 1, rect: SIGNATURE_RECT }, 'approve');
    expect(errorOf(approve)).toEqual([422, 'VALIDATION_FAILED']);
    expect(pointerOf(approve)).toBe('/data/attributes/tasks/0/fields');
    expect(await app.service.deps.knex('tasks').where({ document_id: other })).toEqual([]);
  });

  it('are enforced when signing, and the signature appears at the field', async () => {
    const taskId = tasks[0]!.id;
    const [signatureField, textField] = tasks[0]!.attributes.fields as { id: string }[];
    const partnerField = (tasks[1]!.attributes.fields as { id: string }[])[0]!;
    const sign = (placements: unknown[]) => signTaskCall(app, w.userA1.token, taskId, { placements });

    const missing = await sign([]);
    expect(errorOf(missing)).toEqual([422, 'SIGNING_FIELD_REQUIRED']);
    expect(missing.body.errors[0].meta.messages.ja).toContain('必須');
    const own = await sign([{ kind: 'seal', page: 1, rect: SIGNATURE_RECT, image: pngUrl }]);
    expect(errorOf(own)).toEqual([422, 'SIGNING_OWN_PLACEMENT_NOT_ALLOWED']);
    expect(pointerOf(own)).toBe('/data/attributes/placements/0');
    const wrongKind = await sign([{ kind: 'text', fieldId: signatureField!.id, lines: ['山田'] }]);
    expect(errorOf(wrongKind)).toEqual([422, 'SIGNING_FIELD_KIND_MISMATCH']);
    const notMine = await sign([
      { kind: 'seal', fieldId: signatureField!.id, image: pngUrl },
      { kind: 'seal', fieldId: partnerField.id, image: pngUrl },
    ]);
    expect(errorOf(notMine)).toEqual([422, 'SIGNING_FIELD_NOT_FOUND']);
    expect(pointerOf(notMine)).toBe('/data/attributes/placements/1/fieldId');

    // The request's page and rect are ignored for a field: the field's own are used.
    const signed = await sign([
      { kind: 'seal', fieldId: signatureField!.id, image: pngUrl, page: 1, rect: { x1: 1, y1: 1, x2: 2, y2: 2 } },
      { kind: 'text', fieldId: textField!.id, lines: ['山田商事'] },
    ]);
    expect(signed.status).toBe(200);
    const pdf = await latestPdf(app, documentId);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    const [rect] = await signatureWidgetRects(pdf);
    expect(rect).toEqual([SIGNATURE_RECT.x1, SIGNATURE_RECT.y1, SIGNATURE_RECT.x2, SIGNATURE_RECT.y2]);

    // The partner may add a box of their own (allowed) besides filling their field.
    const partnerSigned = await signTaskCall(app, w.userB.token, tasks[1]!.id, {
      placements: [
        { kind: 'seal', fieldId: partnerField.id, image: pngUrl },
        { kind: 'text', page: 1, rect: { x1: 60, y1: 300, x2: 200, y2: 340 }, lines: ['乙社'] },
      ],
    });
    expect(partnerSigned.status).toBe(200);
    const twice = await latestPdf(app, documentId);
    expect(pdfsig(twice).validations).toEqual(['Signature is Valid.', 'Signature is Valid.']);
    expect((await signatureWidgetRects(twice))[1]).toEqual([
      PARTNER_RECT.x1,
      PARTNER_RECT.y1,
      PARTNER_RECT.x2,
      PARTNER_RECT.y2,
    ]);
  });
});

describe('a guest filling a field', () => {
  it('sees the fields and signs with fieldId; a required field left empty is refused', async () => {
    const flowId = await insertFlow(app, w.ownerA.organizationId, w.workspaceId, {
      name: 'ゲスト署名欄',
      createdBy: w.ownerA.ownerId,
    });
    const guest = await signedInGuest(app, w.ownerA.token, flowId);
    const documentId = await newDocument(app, w.ownerA.token, flowId);
    const planned = await plan(app, w.ownerA.token, documentId, [
      guestTask(1, 'sign', guest.oneTimeUserId, {
        fields: [{ kind: 'signature', page: 1, rect: SIGNATURE_RECT, label: 'ゲスト' }],
        allowSignerPlacements: false,
      }),
      groupTask(2, 'approve', w.g1),
    ]);
    const taskId = planned[0]!.id;
    const fieldId = planned[0]!.attributes.fields[0].id as string;
    const seen = await app.api.call('getOneTimeBusinessFlow', {
      token: guest.token,
      params: { businessFlowId: flowId },
    });
    expect(seen.body.data.attributes.documents[0].tasks[0]).toMatchObject({
      allowSignerPlacements: false,
      fields: [{ id: fieldId, kind: 'signature', rect: SIGNATURE_RECT, required: true, label: 'ゲスト' }],
    });
    const guestSign = (placements: unknown[]) =>
      app.api.call('signOneTimeTask', {
        token: guest.token,
        params: { taskId },
        body: { data: { type: 'TaskSignature', attributes: { placements } } },
      });
    expect(errorOf(await guestSign([]))).toEqual([422, 'SIGNING_FIELD_REQUIRED']);
    expect(errorOf(await guestSign([{ kind: 'handwritten', page: 1, rect: TEXT_RECT, image: pngUrl }]))).toEqual([
      422,
      'SIGNING_OWN_PLACEMENT_NOT_ALLOWED',
    ]);
    const signed = await guestSign([{ kind: 'handwritten', fieldId, image: pngUrl }]);
    expect(signed.status).toBe(200);
    const pdf = await latestPdf(app, documentId);
    expect(pdfsig(pdf).validations).toEqual(['Signature is Valid.']);
    expect(await signatureWidgetRects(pdf)).toEqual([
      [SIGNATURE_RECT.x1, SIGNATURE_RECT.y1, SIGNATURE_RECT.x2, SIGNATURE_RECT.y2],
    ]);
  });
});
