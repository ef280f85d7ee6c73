import { performance } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { encryptedPdf } from '../../tests/fixtures/malicious/corpus.ts';
import { cleanPdf } from '../../tests/fixtures/malicious/pdf-builder.ts';
import { duplicateKeysPdf, longArrayPdf, objectStreamBombPdf } from '../../tests/helpers/costly-pdfs.ts';
import { UPLOAD_LIMITS } from '../files/upload-limits.ts';
import { AppError } from '../http/errors.ts';
import { PdfWorkPool, transferable } from './pool.ts';
import type { VerifyTaskInput } from './tasks.ts';

const TIME_BUDGET_MS = 1000;
/**
 * Within every PdfBudget limit yet slow to parse: three million repeats of one dictionary key (15 MB) hold pdf-lib
 * for seconds (about 4 s on an idle machine here), which only the time budget stops.
 */
const slowPdf = () => duplicateKeysPdf(3_000_000);
const pools: PdfWorkPool[] = [];
afterAll(() => Promise.all(pools.map((pool) => pool.close())));

function pool(settings: ConstructorParameters<typeof PdfWorkPool>[0]): PdfWorkPool {
  const made = new PdfWorkPool(settings);
  pools.push(made);
  return made;
}

/** The verify task for `pdf` as an upload (inspected first), with an empty trust store. */
function verifyUpload(pdf: Uint8Array): VerifyTaskInput {
  return { pdf, trust: { anchors: [], localCa: null }, options: {}, upload: { fileName: 'upload.pdf' } };
}

/** The AppError `promise` rejects with. */
async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

// One worker, a one-second budget, one place in the queue: shared by the tests below, in order.
const shared = pool({ workers: 1, timeoutMs: TIME_BUDGET_MS, memoryMb: 512, queue: 1 });

describe('PDF worker pool', () => {
  it('runs a task in a worker; the time budget starts when the worker starts the task, not with the worker', async () => {
    // Starting a worker loads the parsers (seconds here): longer than the budget, and the task still completes.
    const report = await shared.run('verify', verifyUpload(cleanPdf()));
    expect(report.signatures).toEqual([]);
    expect(report.encrypted).toBe(false);
  });

  it('hands back an AppError thrown in the worker as an AppError of the same code', async () => {
    const error = await appErrorOf(shared.run('verify', verifyUpload(await encryptedPdf())));
    expect(error.code).toBe('FILE_PASSWORD_PROTECTED');
    expect(error.status).toBe(422);
  });

  it('stops a task over its time budget (VERIFICATION_BUDGET_EXCEEDED) and runs the next on a new worker', async () => {
    const started = performance.now();
    const error = await appErrorOf(shared.run('verify', verifyUpload(slowPdf())));
    expect(error.code).toBe('VERIFICATION_BUDGET_EXCEEDED');
    expect(error.detail).toMatch(/longer than 1000 ms/);
    expect(performance.now() - started).toBeLessThan(TIME_BUDGET_MS + 3000);
    const report = await shared.run('verify', verifyUpload(cleanPdf()));
    expect(report.signatures).toEqual([]);
  });

  it('refuses a task as busy (VERIFICATION_BUSY) while every worker and the queue are taken', async () => {
    const running = appErrorOf(shared.run('verify', verifyUpload(slowPdf())));
    const queued = appErrorOf(shared.run('verify', verifyUpload(slowPdf())));
    expect(shared.pending).toBe(2);
    const refused = await appErrorOf(shared.run('verify', verifyUpload(cleanPdf())));
    expect(refused.code).toBe('VERIFICATION_BUSY');
    expect(refused.status).toBe(503);
    expect(refused.headers['Retry-After']).toBe('1');
    // Every task has its own codes: upload inspection is PDF_WORK_BUSY when the same pool is full.
    const inspection = await appErrorOf(
      shared.run('inspect', { bytes: cleanPdf(), fileName: 'a.pdf', allowed: ['pdf'] }),
    );
    expect(inspection.code).toBe('PDF_WORK_BUSY');
    expect(inspection.status).toBe(503);
    expect((await running).code).toBe('VERIFICATION_BUDGET_EXCEEDED');
    expect((await queued).code).toBe('VERIFICATION_BUDGET_EXCEEDED');
    expect(shared.pending).toBe(0);
  });

  it("ends a task whose file is over its PdfBudget at once, with the task's own code", async () => {
    const bomb = objectStreamBombPdf(1024);
    await shared.run('verify', verifyUpload(cleanPdf())); // a worker replaced before starts again first
    const started = performance.now();
    const verification = await appErrorOf(shared.run('verify', verifyUpload(bomb)));
    expect(verification.code).toBe('VERIFICATION_BUDGET_EXCEEDED');
    expect(verification.detail).toMatch(/^verify: a stream inflates to more than/);
    const inspection = await appErrorOf(shared.run('inspect', { bytes: bomb, fileName: 'bomb.pdf', allowed: ['pdf'] }));
    expect(inspection.code).toBe('PDF_TOO_COMPLEX');
    expect(inspection.status).toBe(422);
    const geometry = await appErrorOf(shared.run('pageSizes', { pdf: bomb }));
    expect(geometry.code).toBe('PDF_TOO_COMPLEX');
    // Each was refused by the budget, long before the time budget of the three (3 s) was spent.
    expect(performance.now() - started).toBeLessThan(3 * TIME_BUDGET_MS);
  });

  it('moves whole buffers to the worker and copies views into a larger buffer first', async () => {
    const whole = new Uint8Array(cleanPdf());
    expect(transferable(whole)).toBe(whole);
    const larger = Buffer.concat([cleanPdf(), Buffer.alloc(16)]);
    const view = larger.subarray(0, larger.length - 16);
    const copy = transferable(view);
    expect(copy.buffer).not.toBe(larger.buffer);
    expect(Buffer.from(copy).equals(view)).toBe(true);
    await shared.run('verify', verifyUpload(whole), { transfer: [whole.buffer] });
    expect(whole.byteLength).toBe(0);
    expect(larger.byteLength).toBe(cleanPdf().length + 16);
  });

  it('refuses input over the task budget before any worker reads it', async () => {
    const fresh = pool({ workers: 1, timeoutMs: TIME_BUDGET_MS, memoryMb: 512 });
    const oversized = new Uint8Array(UPLOAD_LIMITS.verification.maxBytes + 1);
    const error = await appErrorOf(fresh.run('verify', verifyUpload(oversized)));
    expect(error.code).toBe('VERIFICATION_BUDGET_EXCEEDED');
    expect(error.detail).toMatch(/over the \d+-byte budget/);
    expect(fresh.pending).toBe(0);
  });

  it('fails a task whose worker runs out of heap (VERIFICATION_BUDGET_EXCEEDED) and replaces the worker', async () => {
    const small = pool({ workers: 1, timeoutMs: 20_000, memoryMb: 64 });
    const error = await appErrorOf(small.run('verify', verifyUpload(longArrayPdf(5_000_000))));
    expect(error.code).toBe('VERIFICATION_BUDGET_EXCEEDED');
    expect(error.detail).toMatch(/out of its 64 MB heap/);
    const report = await small.run('verify', verifyUpload(cleanPdf()));
    expect(report.signatures).toEqual([]);
  }, 60_000);
});
