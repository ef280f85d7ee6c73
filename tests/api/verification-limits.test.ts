/*
 * Verification of uploaded PDFs runs in the PDF worker pool (core/pdf-work) with a budget: a costly PDF neither
 * stalls the service nor other requests, a task over its time ends with its own code and the next one still works,
 * an encrypted PDF that opens without a password is verified, and the service's own signed output of a largest
 * document fits the verification limit.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_LIMITS } from '../../core/files/upload-limits.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { duplicateKeysPdf } from '../helpers/costly-pdfs.ts';
import { callMultipart } from '../helpers/documents.ts';
import { adminSession, type AdminSession } from '../helpers/org-admin.ts';
import { repeatByteRange } from '../helpers/pdf-attacks.ts';
import { buildNoisePdf, buildPdf } from '../helpers/pdf.ts';
import { engineSign, tempFile } from '../helpers/signing.ts';

const MB = 1024 * 1024;
/** The per-task time budget of the main app's PDF workers (the default is 20 s): room for the legitimate PDFs. */
const TIME_BUDGET_MS = 4000;
/**
 * The budget of a second app that verifies the costly PDF: far below what reading it takes on the fastest machine
 * seen (3.2 s idle in 2026-11), so it ends over budget there as well as on a loaded CI machine.
 */
const SHORT_BUDGET_MS = 1500;
/**
 * A PDF within every PdfBudget limit (core/files/pdf-budget.ts: a decompression bomb is refused at once, see
 * pdf-bombs.test.ts) that still keeps a parser busy: six million repeats of one dictionary key (30 MB, a small heap),
 * which pdf-lib reads for 3 to 8 s on an idle machine here and longer under load: past the short budget either way.
 */
const costlyPdf = () => duplicateKeysPdf(6_000_000);

let app: TestApp;
let owner: AdminSession;
let shortBudgetApp: TestApp;
let shortBudgetOwner: AdminSession;
let signed: Uint8Array;

/** Verifies `bytes` through the API (verifySignatures), on the main app or on the one with the short budget. */
function verify(bytes: Uint8Array, fileName = 'signed.pdf', on: 'main' | 'short' = 'main') {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), fileName);
  if (on === 'short') return callMultipart(shortBudgetApp, 'verifySignatures', { token: shortBudgetOwner.token, form });
  return callMultipart(app, 'verifySignatures', { token: owner.token, form });
}

const codesOf = (body: { errors?: { code: string }[] }) => (body.errors ?? []).map((e) => e.code);

function qpdfEncrypt(pdf: Uint8Array, userPassword: string): Uint8Array {
  const input = tempFile('plain.pdf', pdf);
  const output = tempFile('encrypted.pdf');
  execFileSync('qpdf', ['--encrypt', userPassword, 'owner-secret', '256', '--', input, output]);
  return readFileSync(output);
}

beforeAll(async () => {
  app = await startApp({
    env: { KEIYAKU_PDF_WORKERS: '1', KEIYAKU_PDF_WORK_TIMEOUT_MS: String(TIME_BUDGET_MS) },
  });
  owner = await adminSession(app);
  signed = (await engineSign(app, await buildPdf({ text: 'Keiyaku verification limits' }))).pdf;
  // The first verification starts the worker (it loads the parsers); the timings below are of a running pool.
  expect((await verify(signed)).status).toBe(200);
  shortBudgetApp = await startApp({
    env: { KEIYAKU_PDF_WORKERS: '1', KEIYAKU_PDF_WORK_TIMEOUT_MS: String(SHORT_BUDGET_MS) },
  });
  shortBudgetOwner = await adminSession(shortBudgetApp);
  expect((await verify(signed, 'signed.pdf', 'short')).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await shortBudgetApp?.close();
  await app?.close();
});

describe('verification off the event loop, within a budget', () => {
  it('answers a PDF with 5,000 signature fields sharing one ByteRange and /Contents within a few seconds', async () => {
    const attacked = await repeatByteRange(signed, 5000);
    const started = performance.now();
    const response = await verify(attacked, 'copies.pdf');
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.signatures.length).toBeGreaterThan(0);
    expect(elapsed).toBeLessThan(5000);
  });

  it('answers /healthz within 200 ms, again and again, while a costly PDF keeps a worker busy', async () => {
    const costly = costlyPdf();
    // A first call pays for the client's contract validator and a new connection: not what is measured.
    expect((await shortBudgetApp.api.call('getHealth')).status).toBe(200);
    const started = performance.now();
    let settled = false;
    const pending = verify(costly, 'costly.pdf', 'short').finally(() => {
      settled = true;
    });
    const latencies: number[] = [];
    await sleep(300); // the upload reaches the worker
    while (!settled) {
      const before = performance.now();
      const health = await shortBudgetApp.api.call('getHealth');
      latencies.push(performance.now() - before);
      expect(health.status).toBe(200);
      await sleep(100);
    }
    const response = await pending;
    expect(codesOf(response.body)).toEqual(['VERIFICATION_BUDGET_EXCEEDED']);
    expect(performance.now() - started).toBeGreaterThanOrEqual(SHORT_BUDGET_MS);
    // Probed all along the worker's run (one probe per ~100 ms; on the event loop the run would have been a single
    // probe waiting seconds). Alone they stay under 50 ms; the 95th percentile and a second at most leave room for
    // the scheduler when the whole suite shares two cores.
    expect(latencies.length).toBeGreaterThan(SHORT_BUDGET_MS / 300);
    const sorted = [...latencies].sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length * 0.95)]).toBeLessThan(200);
    expect(sorted[sorted.length - 1]).toBeLessThan(1000);
  }, 60_000);

  it('ends a verification over its time budget with 422 VERIFICATION_BUDGET_EXCEEDED; the next one works', async () => {
    const costly = costlyPdf();
    const started = performance.now();
    const over = await verify(costly, 'costly.pdf', 'short');
    const elapsed = performance.now() - started;
    expect(over.status).toBe(422);
    expect(codesOf(over.body)).toEqual(['VERIFICATION_BUDGET_EXCEEDED']);
    // The code says the budget ended it; how long the answer then takes depends on how busy the machine is (10 s
    // were seen with the whole suite on two slow cores), so no upper bound is asserted here.
    expect(elapsed).toBeGreaterThanOrEqual(SHORT_BUDGET_MS);
    // Its worker was terminated; a new one answers.
    const next = await verify(signed, 'signed.pdf', 'short');
    expect(next.status).toBe(200);
    expect(next.body.data.attributes.signatures.length).toBe(1);
  }, 60_000);
});

describe('encrypted PDFs and the size of signed output', () => {
  it('verifies an encrypted PDF that opens with the empty user password (encrypted: true)', async () => {
    const response = await verify(qpdfEncrypt(signed, ''), 'encrypted.pdf');
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.encrypted).toBe(true);
    expect(response.body.data.attributes.signatures.length).toBeGreaterThan(0);
  });

  it('refuses an encrypted PDF that needs a user password (422 FILE_PASSWORD_PROTECTED)', async () => {
    const response = await verify(qpdfEncrypt(signed, 'user-secret'), 'locked.pdf');
    expect(response.status).toBe(422);
    expect(codesOf(response.body)).toEqual(['FILE_PASSWORD_PROTECTED']);
  });

  it('still refuses a document upload encrypted with the empty user password (FILE_PASSWORD_PROTECTED)', async () => {
    const { businessFlowId } = await seedBusinessFlow(app, {
      organizationId: owner.organizationId,
      groupId: owner.defaultGroupId,
      createdBy: owner.ownerId,
    });
    const form = new FormData();
    const bytes = qpdfEncrypt(await buildPdf(), '');
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/pdf' }), 'encrypted.pdf');
    const response = await callMultipart(app, 'uploadDocument', {
      token: owner.token,
      params: { businessFlowId },
      form,
    });
    expect(response.status).toBe(422);
    expect(codesOf(response.body)).toEqual(['FILE_PASSWORD_PROTECTED']);
  });

  it('accepts the signed output of a document at the 30 MB upload limit, and refuses a file over its own limit', async () => {
    const document = await buildNoisePdf(UPLOAD_LIMITS.document.maxBytes - 80 * 1024);
    expect(document.length).toBeLessThanOrEqual(UPLOAD_LIMITS.document.maxBytes);
    const once = (await engineSign(app, document, { signerName: 'Keiyaku verification limits' })).pdf;
    const output = (await engineSign(app, once, { signerName: 'Keiyaku verification limits' })).pdf;
    expect(output.length).toBeGreaterThan(30 * MB);
    const response = await verify(output, 'large-signed.pdf');
    expect(response.status).toBe(200);
    expect(response.body.data.attributes.signatures.length).toBe(2);
    const tooLarge = new Uint8Array(UPLOAD_LIMITS.verification.maxBytes + 1).fill(0x20);
    tooLarge.set(new TextEncoder().encode('%PDF-1.7\n'));
    const refused = await verify(tooLarge, 'too-large.pdf');
    expect(refused.status).toBe(413);
    expect(codesOf(refused.body)).toEqual(['FILE_TOO_LARGE']);
  }, 60_000);
});
