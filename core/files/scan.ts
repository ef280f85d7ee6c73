/*
 * The malware-scan hook of document uploads. An upload stores its version with scan_status 'pending' and queues
 * DOCUMENT_SCAN_JOB ({ documentVersionId }) in the same transaction; the malware-scan plugin works that queue,
 * reads the blob through the file store and records its verdict here. While a version is pending it can be
 * neither downloaded nor worked on (tasks); a malicious or failed verdict stops the document until it is
 * cancelled, or remanded and uploaded again.
 *
 *   recordScanVerdict(deps, trx, { documentVersionId, verdict, engine, detail }) -> { changed }
 *                                              (a clean verdict queues DOCUMENT_SCANNED_JOB: hook 'document.scanned')
 *   latestVersion(db, documentId)              -> the newest document_versions row
 *   assertScanAllowsUse(version)               -> throws DOCUMENT_BEING_SCANNED / DOCUMENT_MALICIOUS / DOCUMENT_SCAN_FAILED
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../deps.ts';
import { AppError } from '../http/errors.ts';

/** The queue the malware-scan plugin works; job data `{ documentVersionId }`. */
export const DOCUMENT_SCAN_JOB = 'malware-scan.scan';

/** The job that tells plugins a version was found clean (hook 'document.scanned'); data `{ documentVersionId }`. */
export const DOCUMENT_SCANNED_JOB = 'documents.scanned';

export interface DocumentScanJob {
  documentVersionId: string;
}

export type ScanVerdict = 'clean' | 'malicious' | 'failed';
export type ScanStatus = 'pending' | ScanVerdict;

/** A document_versions row as knex returns it. */
export interface DocumentVersionRow {
  id: string;
  organization_id: string;
  document_id: string;
  version: number;
  file_name: string;
  content_type: string;
  size_bytes: number | string;
  sha256: string;
  page_count: number | null;
  scan_status: ScanStatus;
  scan_engine: string | null;
  scan_detail: string | null;
  scanned_at: Date | null;
  uploaded_by: string | null;
  created_at: Date;
}

/**
 * Records a scan verdict on one document version, with a document event and the operation log, in the caller's
 * transaction. Recording the verdict the version already has changes nothing (a retried job is harmless).
 */
export async function recordScanVerdict(
  deps: Pick<CoreDeps, 'clock' | 'oplog' | 'jobs'>,
  trx: Knex.Transaction,
  input: { documentVersionId: string; verdict: ScanVerdict; engine: string; detail?: string | null },
): Promise<{ changed: boolean }> {
  const version = (await trx('document_versions').where('id', input.documentVersionId).forUpdate().first()) as
    DocumentVersionRow | undefined;
  if (!version) throw new AppError('NOT_FOUND');
  if (version.scan_status === input.verdict && version.scan_engine === input.engine) return { changed: false };
  const now = deps.clock.now();
  const detail = input.detail ?? null;
  await trx('document_versions')
    .where('id', version.id)
    .update({ scan_status: input.verdict, scan_engine: input.engine, scan_detail: detail, scanned_at: now });
  await trx('document_events').insert({
    organization_id: version.organization_id,
    document_id: version.document_id,
    kind: `scan_${input.verdict}`,
    reason: detail,
    created_at: now,
  });
  await deps.oplog.append(trx, null, {
    action: 'document.scanned',
    organizationId: version.organization_id,
    targetType: 'document',
    targetId: version.document_id,
    details: { version: version.version, verdict: input.verdict, engine: input.engine, detail },
  });
  // Plugins that work on a document's content (AI-OCR) hear of it only once it is known clean, after the commit.
  if (input.verdict === 'clean') {
    await deps.jobs.send<DocumentScanJob>(DOCUMENT_SCANNED_JOB, { documentVersionId: version.id }, { trx });
  }
  return { changed: true };
}

/** The newest version of a document (every document has at least one). */
export async function latestVersion(db: Knex, documentId: string): Promise<DocumentVersionRow> {
  const row = await db('document_versions').where('document_id', documentId).orderBy('version', 'desc').first();
  if (!row) throw new AppError('NOT_FOUND');
  return row as DocumentVersionRow;
}

/** Refuses to hand out or work on a version that is not known to be clean. */
export function assertScanAllowsUse(version: Pick<DocumentVersionRow, 'scan_status'>): void {
  if (version.scan_status === 'pending') throw new AppError('DOCUMENT_BEING_SCANNED');
  if (version.scan_status === 'malicious') throw new AppError('DOCUMENT_MALICIOUS');
  if (version.scan_status === 'failed') throw new AppError('DOCUMENT_SCAN_FAILED');
}
