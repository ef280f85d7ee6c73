/*
 * Creating a document in a business flow, and adding a version to one. Both run in the caller's transaction after
 * the file is inspected and stored (store-file.ts): the version row (scan pending), the history event, the
 * operation log, the usage counter and the malware-scan job commit together or not at all.
 */
import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import { DOCUMENT_SCAN_JOB, type DocumentScanJob } from '../../files/scan.ts';
import { AppError } from '../../http/errors.ts';
import { logFlowChange } from '../business-flows/complete.ts';
import { writePropertyValues } from '../properties/values.ts';
import { recordUsage } from '../usage/counters.ts';
import { uniquely } from '../users/validation.ts';
import type { WorkspaceAccess } from '../workspaces/access.ts';
import {
  addDocumentEvent,
  DOCUMENT_SYSTEM_LINK_UNIQUE,
  type DocumentActor,
  type DocumentRow,
  logDocumentChange,
} from './model.ts';
import type { StoredUpload } from './store-file.ts';
import { applyDocumentTemplate, type TemplateDefaults } from './template.ts';
import type { DocumentUploadInput } from './upload-form.ts';

/** Reads the flow for the upload (FOR SHARE: it cannot be cancelled meanwhile); a cancelled flow is 409. */
export async function flowAcceptingDocuments(trx: Knex.Transaction, flowId: string) {
  const flow = await trx('business_flows').where({ id: flowId }).forShare().first();
  if (!flow) throw new AppError('NOT_FOUND');
  if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
  return flow as { id: string; organization_id: string; workspace_id: string; name: string; status: string };
}

/**
 * A document uploaded into a completed flow reopens it: a flow shown 完了 must not hold a live document. The flow
 * goes back to in progress (completedAt cleared; it completes again as usual) and the operation log says why.
 */
async function reopenCompletedFlow(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  flow: { id: string; organization_id: string; status: string },
  documentId: string,
  now: Date,
) {
  if (flow.status !== 'complete') return;
  await trx('business_flows')
    .where({ id: flow.id })
    .update({ status: 'in_progress', completed_at: null, updated_at: now, lock_version: trx.raw('lock_version + 1') });
  await logFlowChange(deps, trx, actor, flow, 'business_flow.reopened', {
    before: 'complete',
    reason: 'document_uploaded',
    documentId,
  });
}

/** Inserts a new version of a document (scan pending) and queues its malware scan in the same transaction. */
export async function insertVersion(
  deps: CoreDeps,
  trx: Knex.Transaction,
  document: Pick<DocumentRow, 'id' | 'organization_id'>,
  actor: DocumentActor,
  stored: StoredUpload,
  now: Date,
): Promise<{ id: string; version: number }> {
  const [{ next }] = (await trx('document_versions')
    .where({ document_id: document.id })
    .select(trx.raw('coalesce(max(version), 0)::int + 1 AS next'))) as [{ next: number }];
  const [row] = (await trx('document_versions')
    .insert({
      organization_id: document.organization_id,
      document_id: document.id,
      version: next,
      file_name: stored.fileName,
      content_type: stored.contentType,
      size_bytes: stored.size,
      sha256: stored.sha256,
      page_count: stored.pageCount,
      scan_status: 'pending',
      uploaded_by: actor.userId,
      created_at: now,
    })
    .returning(['id', 'version'])) as { id: string; version: number }[];
  const job: DocumentScanJob = { documentVersionId: row!.id };
  await deps.jobs.send(DOCUMENT_SCAN_JOB, job, { trx });
  return row!;
}

/** Inserts the documents row; a systemLinkId already used in the organization is 422 SYSTEM_LINK_ID_TAKEN. */
async function insertDocument(
  trx: Knex.Transaction,
  flow: { id: string; organization_id: string; status: string },
  actor: DocumentActor,
  input: DocumentUploadInput,
  template: TemplateDefaults | null,
  now: Date,
): Promise<DocumentRow> {
  const [document] = (await uniquely(
    () =>
      trx('documents')
        .insert({
          organization_id: flow.organization_id,
          business_flow_id: flow.id,
          system_link_id: input.systemLinkId,
          name: input.name,
          document_type: input.documentType ?? template?.documentType ?? 'contract',
          // A draft flow's documents are drafts: their tasks stay waiting until the flow is sent.
          status: flow.status === 'draft' ? 'draft' : 'in_progress',
          document_template_id: template?.id ?? null,
          created_by: actor.userId,
          created_at: now,
          updated_at: now,
        })
        .returning('*'),
    { [DOCUMENT_SYSTEM_LINK_UNIQUE]: { code: 'SYSTEM_LINK_ID_TAKEN', pointer: '/systemLinkId' } },
  )) as DocumentRow[];
  return document!;
}

/** Writes the form's property values over the template's; the form's indexes keep their pointers. */
function writeInitialProperties(
  trx: Knex.Transaction,
  document: DocumentRow,
  input: DocumentUploadInput,
  template: TemplateDefaults | null,
  now: Date,
) {
  const fromTemplate = (template?.properties ?? []).filter(
    (t) => !input.properties.some((p) => p.propertyId === t.propertyId),
  );
  const offset = fromTemplate.length;
  return writePropertyValues(trx, {
    organizationId: document.organization_id,
    targetType: 'document',
    targetId: document.id,
    values: [...fromTemplate, ...input.properties],
    now,
    pointer: (i) => (i < 0 ? '/properties' : i < offset ? '/documentTemplateId' : `/properties/${i - offset}/value`),
  });
}

/** Creates the document, its first version, its properties and (from a template) its tasks. */
export async function createDocument(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: DocumentActor,
  target: { flowId: string; access: WorkspaceAccess },
  input: DocumentUploadInput,
  stored: StoredUpload,
): Promise<{ id: string }> {
  const flow = await flowAcceptingDocuments(trx, target.flowId);
  const now = deps.clock.now();
  const template = input.documentTemplateId
    ? await applyDocumentTemplate.load(trx, flow.organization_id, input.documentTemplateId)
    : null;
  const document = await insertDocument(trx, flow, actor, input, template, now);
  await reopenCompletedFlow(deps, trx, actor, flow, document.id, now);
  const version = await insertVersion(deps, trx, document, actor, stored, now);
  const { changed } = await writeInitialProperties(trx, document, input, template, now);
  if (template) await applyDocumentTemplate.tasks(deps, trx, { document, access: target.access, template, actor });
  await addDocumentEvent(trx, document, actor, { kind: 'uploaded', at: now });
  await recordUsage(trx, flow.organization_id, 'documents', 1, now);
  await logDocumentChange(deps, trx, actor, document, 'document.uploaded', {
    businessFlowId: flow.id,
    name: input.name,
    documentType: document.document_type,
    version: version.version,
    fileName: stored.fileName,
    sha256: stored.sha256,
    size: stored.size,
    documentTemplateId: template?.id ?? null,
    properties: changed,
  });
  return { id: document.id };
}
