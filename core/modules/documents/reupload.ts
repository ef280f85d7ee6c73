/*
 * A new version of a document (reuploadDocument). Allowed when the document is remanded, when its latest version
 * was found malicious or could not be scanned, or while it is in progress with no task completed yet; otherwise
 * 409 DOCUMENT_REUPLOAD_NOT_ALLOWED. Earlier versions stay and remain downloadable by number. The check runs once
 * before the file is read (cheap refusal) and again under the row lock.
 */
import type { Knex } from 'knex';
import { assertLockVersion, lockedRow } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { latestVersion } from '../../files/scan.ts';
import { AppError } from '../../http/errors.ts';
import { addDocumentEvent, type DocumentActor, type DocumentRow, logDocumentChange } from './model.ts';
import type { StoredUpload } from './store-file.ts';
import { flowAcceptingDocuments, insertVersion } from './upload.ts';

/** Throws DOCUMENT_REUPLOAD_NOT_ALLOWED unless the document may take a new version now. */
export async function assertReuploadAllowed(db: Knex, document: DocumentRow): Promise<void> {
  if (document.status === 'remanded' || document.status === 'draft') return;
  if (document.status === 'in_progress') {
    const latest = await latestVersion(db, document.id);
    if (latest.scan_status === 'malicious' || latest.scan_status === 'failed') return;
    const completed = await db('tasks').where({ document_id: document.id, status: 'completed' }).first('id');
    if (!completed) return;
  }
  throw new AppError('DOCUMENT_REUPLOAD_NOT_ALLOWED');
}

export async function addDocumentVersion(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  target: { documentId: string; organizationId: string; lockVersion: number | null },
  stored: StoredUpload,
): Promise<void> {
  const key = { id: target.documentId, organization_id: target.organizationId };
  const seen = await trx('documents').where(key).first('business_flow_id');
  if (!seen) throw new AppError('NOT_FOUND');
  await flowAcceptingDocuments(trx, seen.business_flow_id);
  const document = await lockedRow<DocumentRow>(trx, 'documents', key);
  if (target.lockVersion !== null) assertLockVersion(document, target.lockVersion);
  await assertReuploadAllowed(trx, document);
  const now = deps.clock.now();
  const version = await insertVersion(deps, trx, document, actor, stored, now);
  await trx('documents')
    .where(key)
    .update({ updated_at: now, lock_version: trx.raw('lock_version + 1') });
  await addDocumentEvent(trx, document, actor, { kind: 'reuploaded', at: now });
  await logDocumentChange(deps, trx, actor, document, 'document.reuploaded', {
    version: version.version,
    fileName: stored.fileName,
    sha256: stored.sha256,
    size: stored.size,
    status: document.status,
  });
}
