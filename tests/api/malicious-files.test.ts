import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../core/http/errors.ts';
import { CORPUS, type CorpusEntry, oversizedFile } from '../fixtures/malicious/corpus.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { seedBusinessFlow } from '../helpers/business-flows.ts';
import { callMultipart } from '../helpers/documents.ts';
import { adminSession, type AdminSession } from '../helpers/org-admin.ts';

/*
 * The malicious-file corpus against the real upload route: each file is refused with its own code, and nothing
 * of it is kept — no documents row, no version row, no blob in the file store, no upload in the operation log.
 */

let app: TestApp;
let owner: AdminSession;
let businessFlowId: string;

beforeAll(async () => {
  app = await startApp();
  owner = await adminSession(app);
  ({ businessFlowId } = await seedBusinessFlow(app, {
    organizationId: owner.organizationId,
    groupId: owner.defaultGroupId,
    createdBy: owner.ownerId,
  }));
});
afterAll(() => app?.close());

/** What an upload could leave behind in the organization and on disk. */
async function traces() {
  const knex = app.service.deps.knex;
  const count = async (query: ReturnType<typeof knex>) =>
    Number(((await query.count({ n: '*' })) as { n: string | number }[])[0]!.n);
  const blobs = path.join(app.dataDir, 'blobs');
  return {
    documents: await count(knex('documents').where({ organization_id: owner.organizationId })),
    versions: await count(knex('document_versions').where({ organization_id: owner.organizationId })),
    uploadLogs: await count(
      knex('operation_logs').where({ organization_id: owner.organizationId }).where({ action: 'document.uploaded' }),
    ),
    blobs: existsSync(blobs)
      ? readdirSync(blobs, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length
      : 0,
  };
}

/** Uploads `bytes` under `fileName` (declared type from the name, as a browser would) into the flow. */
async function upload(bytes: Buffer, fileName: string) {
  const form = new FormData();
  const declared = fileName.endsWith('.pdf') ? 'application/pdf' : 'text/plain';
  form.append('file', new Blob([bytes], { type: declared }), fileName);
  return callMultipart(app, 'uploadDocument', { token: owner.token, params: { businessFlowId }, form });
}

async function expectRefusedLeavingNothing(bytes: Buffer, fileName: string, code: ErrorCode, status: number) {
  const before = await traces();
  const response = await upload(bytes, fileName);
  expect(response.status).toBe(status);
  expect(response.body.errors.map((e: { code: string }) => e.code)).toEqual([code]);
  expect(await traces()).toEqual(before);
}

describe('malicious-file corpus: each refused with its own code, nothing stored', () => {
  it('accepts a clean PDF (the corpus is refused for its content, not for the route)', async () => {
    const { cleanPdf } = await import('../fixtures/malicious/pdf-builder.ts');
    const before = await traces();
    const response = await upload(cleanPdf(), 'clean.pdf');
    expect(response.status).toBe(201);
    expect((await traces()).documents).toBe(before.documents + 1);
  });

  const byName = (name: string) => CORPUS.find((entry) => entry.name === name)!;
  const refuses = (entry: CorpusEntry) => async () =>
    expectRefusedLeavingNothing(await entry.bytes(), entry.fileName, entry.code, 422);

  it(
    'refuses the EICAR test file named .pdf (422 FILE_MALWARE_DETECTED)',
    refuses(byName('the EICAR test file named .pdf')),
  );
  it(
    'refuses the EICAR test file named .txt (422 FILE_MALWARE_DETECTED)',
    refuses(byName('the EICAR test file named .txt')),
  );
  it('refuses a PE executable renamed .pdf (422 FILE_EXECUTABLE)', refuses(byName('a PE executable renamed .pdf')));
  it('refuses an ELF executable (422 FILE_EXECUTABLE)', refuses(byName('an ELF executable')));
  it('refuses an empty file (422 FILE_EMPTY)', refuses(byName('an empty file')));
  it('refuses a password-protected PDF (422 FILE_PASSWORD_PROTECTED)', refuses(byName('a password-protected PDF')));
  it('refuses a truncated PDF (422 FILE_CORRUPTED)', refuses(byName('a truncated PDF')));
  it(
    'refuses a PDF with /JavaScript in its /OpenAction (422 FILE_ACTIVE_CONTENT)',
    refuses(byName('a PDF with /JavaScript in its /OpenAction')),
  );
  it(
    'refuses a PDF with the /JavaScript name hidden by #xx hex escapes (422 FILE_ACTIVE_CONTENT)',
    refuses(byName('a PDF with the /JavaScript name hidden by #xx hex escapes')),
  );
  it(
    'refuses a PDF with /JavaScript inside a Flate-compressed object stream (422 FILE_ACTIVE_CONTENT)',
    refuses(byName('a PDF with /JavaScript inside a Flate-compressed object stream')),
  );
  it('refuses a PDF with a /Launch action (422 FILE_ACTIVE_CONTENT)', refuses(byName('a PDF with a /Launch action')));
  it('refuses a PDF with an embedded .exe (422 FILE_ACTIVE_CONTENT)', refuses(byName('a PDF with an embedded .exe')));

  it('refuses a 31 MB file (413 FILE_TOO_LARGE)', async () => {
    await expectRefusedLeavingNothing(oversizedFile(31), 'huge.pdf', 'FILE_TOO_LARGE', 413);
  });

  it('covers every corpus entry with its own test above', () => {
    expect(CORPUS.map((entry) => entry.name)).toHaveLength(12);
  });
});
