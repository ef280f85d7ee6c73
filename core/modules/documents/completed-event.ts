/*
 * "A document completed", told to plugins (hook 'document.completed') at least once and only after the completion
 * committed: the completing transaction queues this job, and the job emits the event. A crash between the commit
 * and the hooks loses nothing; a hook must tolerate hearing of the same document twice.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';

export const DOCUMENT_COMPLETED_JOB = 'documents.completed';

interface CompletedJob {
  documentId: string;
}

/** Queues the event in the transaction that completed the document (one job per document and completion). */
export async function queueDocumentCompleted(deps: CoreDeps, trx: Knex.Transaction, documentId: string) {
  await deps.jobs.send<CompletedJob>(DOCUMENT_COMPLETED_JOB, { documentId }, { trx });
}

/** Registers the job that emits the event; call before the job queue starts. */
export function registerDocumentCompletedJob(deps: CoreDeps): void {
  deps.jobs.register<CompletedJob>(
    DOCUMENT_COMPLETED_JOB,
    async (job) => {
      const row = await deps
        .knex('documents as d')
        .join('business_flows as f', 'f.id', 'd.business_flow_id')
        .join('organizations as o', 'o.id', 'd.organization_id')
        .where('d.id', job.data.documentId)
        .first('d.id', 'd.status', 'd.organization_id', 'f.id as flow_id', 'f.workspace_id', 'o.plan', 'o.options');
      // Reopened (a new upload) or gone since: the completion it was queued for no longer stands.
      if (!row || row.status !== 'completed') return;
      await deps.events.emit('document.completed', {
        organizationId: row.organization_id,
        documentId: row.id,
        businessFlowId: row.flow_id,
        workspaceId: row.workspace_id,
        plan: row.plan,
        options: row.options ?? [],
      });
    },
    { retryLimit: 5 },
  );
}
