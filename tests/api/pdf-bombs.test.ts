/*
 * Decompression bombs and other PDFs that are cheap to send and costly to read, made here (tests/helpers/
 * costly-pdfs.ts): an object stream of 1 MB that inflates to 1 GB, 100 Flate streams of 64 KB that inflate to 64 MB
 * each, arrays nested 100,000 deep, and 100,000 objects. Every parse of a PDF we did not make runs in the PDF worker
 * pool within a budget (core/files/pdf-budget.ts): uploads refuse each with 422 PDF_TOO_COMPLEX, verification with
 * 422 VERIFICATION_BUDGET_EXCEEDED, signing a stored one with 422 PDF_TOO_COMPLEX, each within seconds, nothing is
 * stored, and /healthz answers all along.
 *
 * /healthz is probed every ~20 ms while each request runs (the service and this test share one event loop). With a
 * core to spare (the 1-minute load average under the number of cores) the bounds are the issue's: the 95th
 * percentile under 50 ms, every probe under 250 ms, each refusal within 10 s. With other test files competing for
 * the two cores (a load of 14–15 was seen while developing: probes then took up to ~100 ms with no PDF work at all,
 * and the upload itself is read on the same loop) they are 250 ms and 1 s, and 20 s. A blocked event loop fails
 * either: one probe would wait the whole parse (14–22 s before the budgets), and few probes would be made.
 */
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertVersion } from '../../core/modules/documents/upload.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { deepNestingPdf, flateStreamsPdf, manyObjectsPdf, objectStreamBombPdf } from '../helpers/costly-pdfs.ts';
import { callMultipart, markScanned } from '../helpers/documents.ts';
import { buildPdf } from '../helpers/pdf.ts';
import { confirmEmailOf, signTaskCall } from '../helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

/** The timing bounds: the on a machine with a core to spare, the suite's while other tests compete. */
function bounds(): { p95Ms: number; maxMs: number; refusedWithinMs: number } {
  const quiet = loadavg()[0]! < availableParallelism();
  return quiet
    ? { p95Ms: 50, maxMs: 250, refusedWithinMs: 10_000 }
    : { p95Ms: 250, maxMs: 1000, refusedWithinMs: 20_000 };
}

const CORPUS = [
  { name: 'an object-stream bomb (1 MB inflating to 1 GB)', make: () => objectStreamBombPdf(1024) },
  { name: '100 Flate streams of 64 KB inflating to 64 MB each', make: () => flateStreamsPdf(100, 64) },
  { name: 'arrays nested 100,000 deep', make: () => deepNestingPdf(100_000) },
  { name: '100,000 objects', make: () => manyObjectsPdf(100_000) },
];

let app: TestApp;
let world: TaskWorld;

const codesOf = (body: { errors?: { code: string }[] }) => (body.errors ?? []).map((e) => e.code);

function fileForm(bytes: Uint8Array, fileName: string): FormData {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), fileName);
  return form;
}

const upload = (bytes: Uint8Array) =>
  callMultipart(app, 'uploadDocument', {
    token: world.ownerA.token,
    params: { businessFlowId: world.flowId },
    form: fileForm(bytes, 'bomb.pdf'),
  });

const verify = (bytes: Uint8Array) =>
  callMultipart(app, 'verifySignatures', { token: world.ownerA.token, form: fileForm(bytes, 'bomb.pdf') });

/** Runs `request` while probing /healthz every ~20 ms; returns its response, how long it took and the probes. */
async function whileProbing<T>(request: () => Promise<T>): Promise<{ response: T; elapsed: number; probes: number[] }> {
  let settled = false;
  const started = performance.now();
  const pending = request().finally(() => {
    settled = true;
  });
  const probes: number[] = [];
  while (!settled) {
    const before = performance.now();
    const health = await app.api.call('getHealth');
    probes.push(performance.now() - before);
    expect(health.status).toBe(200);
    await sleep(20);
  }
  return { response: await pending, elapsed: performance.now() - started, probes };
}

/** The request was refused in time and /healthz answered all along (see the file comment for the bounds). */
function expectRefusedInTime({ elapsed, probes }: { elapsed: number; probes: number[] }): void {
  const { p95Ms, maxMs, refusedWithinMs } = bounds();
  expect(elapsed).toBeLessThan(refusedWithinMs);
  // Probes kept coming: at least one per 300 ms of the request, where a blocked loop would allow one in all.
  expect(probes.length).toBeGreaterThanOrEqual(Math.max(1, Math.floor(elapsed / 300)));
  const sorted = [...probes].sort((a, b) => a - b);
  // The 95th percentile by the lower rank: a refusal of half a second gives only ~15 probes, and one slow probe while
  // the upload itself is read should not count as the percentile.
  expect(sorted[Math.floor((sorted.length - 1) * 0.95)]).toBeLessThan(p95Ms);
  expect(sorted[sorted.length - 1]).toBeLessThan(maxMs);
}

beforeAll(async () => {
  // One worker: the budget, not spare cores, keeps the service answering. No malware scan: the tests mark verdicts.
  app = await startApp({
    env: { KEIYAKU_PDF_WORKERS: '1' },
    plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
  });
  world = await seedTaskWorld(app);
  await confirmEmailOf(app, world.ownerA.ownerId);
  // The first PDF task starts the worker (it loads the parsers, seconds); what is measured below is a running pool.
  expect((await upload(await buildPdf())).status).toBe(201);
  // The client's contract validator and connection are paid for once, before anything is measured.
  expect((await app.api.call('getHealth')).status).toBe(200);
}, 120_000);
afterAll(() => app?.close());

describe('a bomb corpus made in the tests is refused within seconds while /healthz answers', () => {
  for (const { name, make } of CORPUS) {
    it(`refuses ${name} as an upload: 422 PDF_TOO_COMPLEX, nothing stored`, async () => {
      const { knex } = app.service.deps;
      const before = await knex('documents').where({ business_flow_id: world.flowId }).count({ n: '*' });
      const bytes = make();
      const run = await whileProbing(() => upload(bytes));
      expect(run.response.status).toBe(422);
      expect(codesOf(run.response.body)).toEqual(['PDF_TOO_COMPLEX']);
      expectRefusedInTime(run);
      const after = await knex('documents').where({ business_flow_id: world.flowId }).count({ n: '*' });
      expect(Number(after[0]!.n)).toBe(Number(before[0]!.n));
    }, 60_000);

    it(`refuses ${name} for verification: 422 VERIFICATION_BUDGET_EXCEEDED`, async () => {
      const bytes = make();
      const run = await whileProbing(() => verify(bytes));
      expect(run.response.status).toBe(422);
      expect(codesOf(run.response.body)).toEqual(['VERIFICATION_BUDGET_EXCEEDED']);
      expectRefusedInTime(run);
    }, 60_000);
  }

  it('refuses to sign a stored object-stream bomb (422 PDF_TOO_COMPLEX), with or without placements', async () => {
    const { deps } = app.service;
    const token = world.ownerA.token;
    const documentId = await newDocument(app, token, world.flowId);
    const [task] = await plan(app, token, documentId, [groupTask(1, 'sign', world.g1, { signatureType: 'operator' })]);
    // Stored as it would have been before uploads were inspected within a budget: only signing meets it now.
    const { sha256, size } = await deps.files.put(objectStreamBombPdf(1024));
    const actor = { userId: world.ownerA.ownerId, organizationId: world.ownerA.organizationId, req: null };
    const stored = { fileName: 'bomb.pdf', contentType: 'application/pdf', size, sha256, pageCount: 1 };
    await deps.knex.transaction((trx) =>
      insertVersion(
        deps,
        trx,
        { id: documentId, organization_id: world.ownerA.organizationId },
        actor,
        stored,
        new Date(),
      ),
    );
    await markScanned(app, documentId, 'clean');
    const placed = {
      placements: [{ kind: 'text', page: 1, rect: { x1: 50, y1: 50, x2: 200, y2: 110 }, lines: ['承認'] }],
    };
    for (const attributes of [placed, {}]) {
      const run = await whileProbing(() => signTaskCall(app, token, task!.id, attributes));
      expect(run.response.status).toBe(422);
      expect(codesOf(run.response.body)).toEqual(['PDF_TOO_COMPLEX']);
      expectRefusedInTime(run);
    }
    const versions = await deps.knex('document_versions').where({ document_id: documentId }).count({ n: '*' });
    expect(Number(versions[0]!.n)).toBe(2); // nothing signed was stored
  }, 60_000);
});
