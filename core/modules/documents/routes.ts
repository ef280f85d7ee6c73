/*
 * Documents: upload into a business flow, detail, the flow's document list, download, update, cancel and
 * re-upload. Uploads are multipart (core/http/multipart-body.ts), read only after the caller's access is checked,
 * with the limits of the `document` place (core/files/upload-limits.ts).
 */
import { perUser } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { UPLOAD_LIMITS } from '../../files/upload-limits.ts';
import { AppError } from '../../http/errors.ts';
import { assertCanEdit, documentAccess, flowAccess } from '../workspaces/access.ts';
import { cancelDocument } from './cancel.ts';
import { completionCertificate } from './completion-certificate.ts';
import { documentBody } from './detail.ts';
import { documentFile } from './download.ts';
import { listFlowDocuments } from './list.ts';
import { documentActorOf, type DocumentRow } from './model.ts';
import { addDocumentVersion, assertReuploadAllowed } from './reupload.ts';
import { inspectAndStore } from './store-file.ts';
import { updateDocument } from './update.ts';
import { readUploadedFile, uploadInputOf } from './upload-form.ts';
import { createDocument } from './upload.ts';
import { registerDocumentCompletedJob } from './completed-event.ts';
import { registerDocumentScannedJob } from './scanned-event.ts';
import { registerIntegrationEventJob } from '../events/integration-event.ts';

export function documentRoutes(api: ApiRouter, deps: CoreDeps): void {
  registerDocumentCompletedJob(deps);
  registerDocumentScannedJob(deps);
  registerIntegrationEventJob(deps);
  const { knex } = deps;
  const limit = UPLOAD_LIMITS.document;
  const uploadLimits = { rateLimit: [perUser('uploadsPerUser')] };

  api.operation('listBusinessFlowDocuments', async ({ principal, params, query }) => ({
    body: await listFlowDocuments(knex, principal, params.businessFlowId, query),
  }));

  api.operation('uploadDocument', uploadLimits, async ({ principal, params, body, req }) => {
    // Refuse before reading the file: no access, no edit rights, or a cancelled flow.
    const { access, flow } = await flowAccess(knex, principal, params.businessFlowId);
    assertCanEdit(access);
    if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
    const { file, fields } = await readUploadedFile(body, limit);
    const input = uploadInputOf(file, fields);
    const stored = await inspectAndStore(deps, file, limit);
    const actor = documentActorOf(principal, req);
    const { id } = await knex.transaction((trx) =>
      createDocument(deps, trx, actor, { flowId: flow.id, access }, input, stored),
    );
    return { status: 201, body: await documentBody(knex, principal, id) };
  });

  api.operation('getDocument', async ({ principal, params }) => ({
    body: await documentBody(knex, principal, params.documentId),
  }));

  api.operation('downloadDocument', async ({ principal, params, query }) => {
    const { stream, headers } = await documentFile(knex, deps.files, principal, params.documentId, query.version);
    return { body: stream, headers };
  });

  api.operation(
    'downloadCompletionCertificate',
    { rateLimit: [perUser('verificationsPerUser')] },
    async ({ principal, params }) => {
      const { body, headers } = await completionCertificate(deps, principal, params.documentId);
      return { body, headers };
    },
  );

  api.operation('updateDocument', async ({ principal, params, body, req }) => {
    const actor = documentActorOf(principal, req);
    await knex.transaction((trx) =>
      updateDocument(deps, trx, principal, actor, params.documentId, body.data.attributes),
    );
    return { body: await documentBody(knex, principal, params.documentId) };
  });

  api.operation('cancelDocument', async ({ principal, params, body, req }) => {
    const actor = documentActorOf(principal, req);
    await knex.transaction((trx) =>
      cancelDocument(deps, trx, principal, actor, params.documentId, body.data.attributes),
    );
    return { body: await documentBody(knex, principal, params.documentId) };
  });

  api.operation('reuploadDocument', uploadLimits, async ({ principal, params, body, req }) => {
    const { access, flow, document } = await documentAccess(knex, principal, params.documentId);
    assertCanEdit(access);
    if (flow.status === 'cancelled') throw new AppError('BUSINESS_FLOW_CANCELLED');
    await assertReuploadAllowed(knex, document as DocumentRow);
    const { file, fields } = await readUploadedFile(body, limit);
    const lockVersion = lockVersionOf(fields.lockVersion);
    const stored = await inspectAndStore(deps, file, limit);
    const actor = documentActorOf(principal, req);
    await knex.transaction((trx) =>
      addDocumentVersion(
        deps,
        trx,
        actor,
        { documentId: params.documentId, organizationId: access.ownerOrganizationId, lockVersion },
        stored,
      ),
    );
    return { status: 201, body: await documentBody(knex, principal, params.documentId) };
  });
}

function lockVersionOf(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  if (!/^\d+$/.test(text.trim())) throw new AppError('VALIDATION_FAILED', { pointer: '/lockVersion' });
  return Number(text.trim());
}
