/*
 * Uploads as the API shows them: the administrators' list, one document's upload (anyone who may read the
 * document), and the manual send of a completed document (administrators who may read it).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { AppError, type PluginRouter } from '../../core/plugins/index.ts';
import type { Ctx } from './client.ts';
import { connectionOf } from './connection.ts';
import { BOX_UPLOAD_JOB, STALE_UPLOAD_MS, type UploadJob, type UploadRow } from './upload.ts';

const ADMIN = { permission: 'organization:manage' } as const;

export function uploadResource(row: UploadRow) {
  return {
    type: 'BoxUpload' as const,
    id: row.id,
    attributes: {
      documentId: row.document_id,
      documentName: row.document_name,
      businessFlowId: row.business_flow_id,
      status: row.status,
      errorCode: (row.error_code ?? null) as never,
      attempts: row.attempts,
      boxFolderId: row.box_folder_id,
      boxFileIds: { document: row.box_file_id_document, certificate: row.box_file_id_certificate },
      trigger: row.trigger,
      updatedAt: row.updated_at.toISOString(),
      uploadedAt: row.uploaded_at?.toISOString() ?? null,
    },
  };
}

/**
 * Queues an upload of a document for an organization, in the caller's transaction: a new row, or an existing one
 * put back to `queued` when `resend` (a manual send); one already queued or running is left as it is. The job
 * carries the upload's id only.
 */
export async function queueUpload(
  ctx: Ctx,
  trx: Knex.Transaction,
  input: {
    organizationId: string;
    documentId: string;
    businessFlowId: string;
    documentName: string;
    trigger: 'completion' | 'manual';
  },
): Promise<{ row: UploadRow; queued: boolean }> {
  const now = ctx.clock.now();
  const inserted = await trx('box_uploads')
    .insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      document_id: input.documentId,
      business_flow_id: input.businessFlowId,
      document_name: input.documentName,
      status: 'queued',
      trigger: input.trigger,
      attempts: 0,
      created_at: now,
      updated_at: now,
    })
    .onConflict(['organization_id', 'document_id'])
    .ignore()
    .returning('*');
  let row = inserted[0] as UploadRow | undefined;
  if (!row) {
    const existing = (await trx('box_uploads')
      .where({ organization_id: input.organizationId, document_id: input.documentId })
      .forUpdate()
      .first()) as UploadRow;
    // A completion heard twice, or a manual send while one is on its way: nothing more to do (unless that one is
    // stale: its job died without ending it).
    const onItsWay = existing.status === 'queued' || existing.status === 'uploading';
    const stale = onItsWay && now.getTime() - existing.updated_at.getTime() > STALE_UPLOAD_MS;
    if (input.trigger === 'completion' || (onItsWay && !stale)) {
      return { row: existing, queued: false };
    }
    [row] = (await trx('box_uploads').where({ id: existing.id }).update(
      {
        status: 'queued',
        trigger: 'manual',
        error_code: null,
        attempts: 0,
        document_name: input.documentName,
        updated_at: now,
      },
      '*',
    )) as UploadRow[];
  }
  await ctx.jobs.send<UploadJob>(BOX_UPLOAD_JOB, { uploadId: row!.id }, { trx });
  return { row: row!, queued: true };
}

export function uploadRoutes(router: PluginRouter, ctx: Ctx): void {
  router.operation('listBoxUploads', ADMIN, async ({ principal, query }) => {
    const number = query['page[number]'] ?? 1;
    const size = query['page[size]'] ?? 20;
    const scope = () => {
      const q = ctx.db('box_uploads').where({ organization_id: principal.organizationId });
      return query['filter[status]'] ? q.where({ status: query['filter[status]'] }) : q;
    };
    const [counted] = await scope().count<{ total: number | string }[]>({ total: '*' });
    const rows: UploadRow[] = await scope()
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .offset((number - 1) * size)
      .limit(size)
      .select('*');
    return {
      body: { data: rows.map(uploadResource), meta: { total: Number(counted?.total ?? 0), page: { number, size } } },
    };
  });

  router.operation('getDocumentBoxUpload', {}, async ({ principal, params }) => {
    await ctx.documents.assertReadable(params.documentId, principal);
    const row = await ctx
      .db('box_uploads')
      .where({ organization_id: principal.organizationId, document_id: params.documentId })
      .first<UploadRow | undefined>();
    if (!row) throw new AppError('BOX_UPLOAD_NOT_FOUND');
    return { body: { data: uploadResource(row) } };
  });

  router.operation('sendDocumentToBox', ADMIN, async ({ principal, params, req }) => {
    const document = await ctx.documents.assertReadable(params.documentId, principal);
    if (document.status !== 'completed') throw new AppError('DOCUMENT_NOT_COMPLETED');
    const connection = await connectionOf(ctx, principal.organizationId);
    if (!connection?.tokens_sealed) throw new AppError('BOX_NOT_CONNECTED');
    if (connection.status === 'auth_failed') throw new AppError('BOX_AUTH_FAILED');
    const { row } = await ctx.db.transaction(async (trx) => {
      const queued = await queueUpload(ctx, trx, {
        organizationId: principal.organizationId,
        documentId: params.documentId,
        businessFlowId: document.businessFlowId,
        documentName: document.name,
        trigger: 'manual',
      });
      if (queued.queued) {
        await ctx.oplog.append(trx, req, {
          action: 'box.document_sent',
          organizationId: principal.organizationId,
          actorUserId: principal.userId,
          targetType: 'document',
          targetId: params.documentId,
          details: { uploadId: queued.row.id },
        });
      }
      return queued;
    });
    return { status: 202, body: { data: uploadResource(row) } };
  });
}
