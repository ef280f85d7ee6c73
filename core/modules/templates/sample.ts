/*
 * A document template's sample PDF: the pages reading positions are drawn on (the web's reading-position editor).
 * Checked as document uploads are (by content, in the PDF worker pool within its budget) and stored as a
 * content-addressed blob; administrators replace it, every member of the organization may read it.
 *
 *   assertSampleTarget(deps, organizationId, templateId)  (404 before the upload is read)
 *   storeTemplateSample(deps, actor, templateId, file) -> void   (a later upload replaces the sample)
 *   templateSampleFile(deps, organizationId, templateId) -> { stream, headers } (404 TEMPLATE_SAMPLE_NOT_FOUND)
 */
import type { Readable } from 'node:stream';
import type { CoreDeps } from '../../deps.ts';
import { UPLOAD_LIMITS } from '../../files/upload-limits.ts';
import { AppError } from '../../http/errors.ts';
import type { UploadedFile } from '../../http/multipart-body.ts';
import { contentDisposition } from '../documents/download.ts';
import { inspectAndStore } from '../documents/store-file.ts';
import { changeLogger } from '../logs/operation-log.ts';
import type { Actor } from '../users/service.ts';

const log = changeLogger('document_template');

/** Refuses (404) a template the caller's organization does not have: before the upload is read at all. */
export async function assertSampleTarget(deps: CoreDeps, organizationId: string, templateId: string) {
  const row = await deps
    .knex('document_templates')
    .where({ id: templateId, organization_id: organizationId })
    .first('id');
  if (!row) throw new AppError('NOT_FOUND');
}

export async function storeTemplateSample(deps: CoreDeps, actor: Actor, templateId: string, file: UploadedFile) {
  const where = { id: templateId, organization_id: actor.organizationId };
  const stored = await inspectAndStore(deps, file, UPLOAD_LIMITS.document);
  await deps.knex.transaction(async (trx) => {
    const now = deps.clock.now();
    const updated = await trx('document_templates')
      .where(where)
      .update({
        sample_sha256: stored.sha256,
        sample_file_name: stored.fileName,
        sample_size: stored.size,
        sample_page_count: stored.pageCount,
        sample_uploaded_at: now,
        updated_at: now,
        lock_version: trx.raw('lock_version + 1'),
      });
    if (updated === 0) throw new AppError('NOT_FOUND');
    await log(deps, trx, actor, 'document_template.sample_uploaded', templateId, {
      fileName: stored.fileName,
      sha256: stored.sha256,
      size: stored.size,
      pageCount: stored.pageCount,
    });
  });
}

export async function templateSampleFile(
  deps: CoreDeps,
  organizationId: string,
  templateId: string,
): Promise<{ stream: Readable; headers: Record<string, string> }> {
  const row = (await deps
    .knex('document_templates')
    .where({ id: templateId, organization_id: organizationId })
    .first('sample_sha256', 'sample_file_name', 'sample_size')) as
    { sample_sha256: string | null; sample_file_name: string | null; sample_size: string | number | null } | undefined;
  if (!row) throw new AppError('NOT_FOUND');
  if (!row.sample_sha256) throw new AppError('TEMPLATE_SAMPLE_NOT_FOUND');
  return {
    stream: await deps.files.stream(row.sample_sha256),
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Length': String(row.sample_size),
      'Content-Disposition': contentDisposition(row.sample_file_name ?? 'sample.pdf'),
      'Cache-Control': 'private, no-store',
    },
  };
}
