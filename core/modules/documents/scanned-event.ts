/*
 * "A document version was found clean", told to plugins (hook 'document.scanned') at least once and only after the
 * verdict committed: recordScanVerdict queues DOCUMENT_SCANNED_JOB in the verdict's transaction and this job emits
 * the event. Plugins that read a document's content (AI-OCR) start here, so a file being scanned, or refused by
 * the scan, is never read.
 */
import type { CoreDeps } from '../../deps.ts';
import { DOCUMENT_SCANNED_JOB, type DocumentScanJob } from '../../files/scan.ts';

/** Registers the job that emits the event; call before the job queue starts. */
export function registerDocumentScannedJob(deps: CoreDeps): void {
  deps.jobs.register<DocumentScanJob>(
    DOCUMENT_SCANNED_JOB,
    async (job) => {
      const row = await deps
        .knex('document_versions as v')
        .join('documents as d', 'd.id', 'v.document_id')
        .join('organizations as o', 'o.id', 'v.organization_id')
        .where('v.id', job.data.documentVersionId)
        .first('v.id', 'v.version', 'v.scan_status', 'd.id as document_id', 'd.document_template_id', 'o.id as org')
        .select('o.plan', 'o.options');
      if (!row || row.scan_status !== 'clean') return;
      await deps.events.emit('document.scanned', {
        organizationId: row.org,
        documentId: row.document_id,
        documentVersionId: row.id,
        version: row.version,
        documentTemplateId: row.document_template_id,
        plan: row.plan,
        options: row.options ?? [],
      });
    },
    { retryLimit: 5 },
  );
}
