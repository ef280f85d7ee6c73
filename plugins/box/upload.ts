/*
 * The 'box.upload' job: a completed document's final signed PDF and completion certificate go to
 * <root>/<workspace>/<business flow>/ in the organization's Box, folders made on demand (an existing folder of the
 * same name is reused: Box's 409 item_name_in_use names it), a file of the same name gets a new version. 5xx and
 * network failures retry with back-off; a refused authorization stops the connection and every upload at once.
 */
import { Readable } from 'node:stream';
import type { BoxClient } from 'box-node-sdk';
import { AppError, type CompletedDocumentFiles } from '../../core/plugins/index.ts';
import {
  boxStatus,
  clientFor,
  conflictId,
  type ConnectionRow,
  type Ctx,
  describeBoxError,
  isAuthFailure,
  isTransient,
} from './client.ts';
import { markAuthFailed } from './auth-failure.ts';

export const BOX_UPLOAD_JOB = 'box.upload';

export interface UploadJob {
  uploadId: string;
}

export interface UploadRow {
  id: string;
  organization_id: string;
  document_id: string;
  business_flow_id: string;
  document_name: string;
  status: 'queued' | 'uploading' | 'done' | 'failed';
  trigger: 'completion' | 'manual';
  error_code: string | null;
  attempts: number;
  box_folder_id: string | null;
  box_file_id_document: string | null;
  box_file_id_certificate: string | null;
  created_at: Date;
  updated_at: Date;
  uploaded_at: Date | null;
}

/** Box folder names may not hold / or \, nor end in spaces, nor be "." / ".."; at most 255 characters. */
export function folderName(name: string): string {
  const cleaned = name.replace(/[/\\]/g, '_').trim().slice(0, 255);
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? '_' : cleaned;
}

/** The folder `name` inside `parentId`: created, or the existing one Box names in its 409 item_name_in_use. */
async function folderIn(client: BoxClient, parentId: string, name: string): Promise<string> {
  try {
    const created = await client.folders.createFolder({ name: folderName(name), parent: { id: parentId } });
    return created.id;
  } catch (error) {
    const existing = conflictId(error);
    if (existing) return existing;
    throw error;
  }
}

/**
 * The flow's folder, from the cache or made (workspace folder first). A cached folder deleted at Box since is
 * noticed by the upload (404) and made again after `forget`.
 */
async function flowFolder(ctx: Ctx, client: BoxClient, connection: ConnectionRow, files: CompletedDocumentFiles) {
  const cached = (scope: 'workspace' | 'business_flow', scopeId: string) =>
    ctx
      .db('box_folders')
      .where({ connection_id: connection.id, scope, scope_id: scopeId })
      .first<{ box_folder_id: string } | undefined>('box_folder_id');
  const remember = async (scope: 'workspace' | 'business_flow', scopeId: string, parent: string, id: string) => {
    await ctx
      .db('box_folders')
      .insert({
        connection_id: connection.id,
        organization_id: connection.organization_id,
        scope,
        scope_id: scopeId,
        parent_folder_id: parent,
        box_folder_id: id,
        created_at: ctx.clock.now(),
      })
      .onConflict(['connection_id', 'scope', 'scope_id'])
      .merge(['parent_folder_id', 'box_folder_id']);
  };
  const flow = await cached('business_flow', files.businessFlow.id);
  if (flow) return flow.box_folder_id;
  let workspaceFolder = (await cached('workspace', files.workspace.id))?.box_folder_id;
  if (!workspaceFolder) {
    workspaceFolder = await folderIn(client, connection.root_folder_id, files.workspace.name);
    await remember('workspace', files.workspace.id, connection.root_folder_id, workspaceFolder);
  }
  const flowFolderId = await folderIn(client, workspaceFolder, files.businessFlow.name);
  await remember('business_flow', files.businessFlow.id, workspaceFolder, flowFolderId);
  return flowFolderId;
}

/** Uploads a file into a folder; one of the same name there gets this as its new version. */
async function putFile(client: BoxClient, folderId: string, fileName: string, bytes: Uint8Array): Promise<string> {
  const file = () => Readable.from(Buffer.from(bytes));
  try {
    const uploaded = await client.uploads.uploadFile({
      attributes: { name: fileName, parent: { id: folderId } },
      file: file(),
      fileFileName: fileName,
      fileContentType: 'application/pdf',
    });
    return uploaded.entries![0]!.id;
  } catch (error) {
    const existing = conflictId(error);
    if (!existing) throw error;
    const version = await client.uploads.uploadFileVersion(existing, {
      attributes: { name: fileName },
      file: file(),
      fileFileName: fileName,
      fileContentType: 'application/pdf',
    });
    return version.entries![0]!.id;
  }
}

async function sendFiles(ctx: Ctx, connection: ConnectionRow, files: CompletedDocumentFiles) {
  const { client } = await clientFor(ctx, connection.id);
  for (let attempt = 1; ; attempt++) {
    const folderId = await flowFolder(ctx, client, connection, files);
    try {
      const document = await putFile(client, folderId, files.signed.fileName, files.signed.bytes);
      const certificate = await putFile(client, folderId, files.certificate.fileName, files.certificate.bytes);
      return { folderId, document, certificate };
    } catch (error) {
      // The cached folder was deleted or moved out of reach at Box: forget the cache and make it again, once.
      if (boxStatus(error) !== 404 || attempt > 1) throw error;
      await ctx.db('box_folders').where({ connection_id: connection.id }).delete();
    }
  }
}

/**
 * An upload queued or uploading without a change for this long lost its job (a worker that died mid-upload): a new
 * job or a manual send may take it over. Longer than one attempt can run (two files at the request timeout, and the
 * folders).
 */
export const STALE_UPLOAD_MS = 30 * 60 * 1000;

/**
 * Runs one upload attempt. The row is claimed first (queued, or uploading and stale), so two jobs never run one
 * upload; the attempt then ends the row as done, failed, or queued again when a transient failure has retries left,
 * which is the only case that throws (the queue retries).
 */
export async function runUpload(ctx: Ctx, job: { data: UploadJob; retryCount: number }): Promise<void> {
  const now = ctx.clock.now();
  const [upload] = (await ctx
    .db('box_uploads')
    .where({ id: job.data.uploadId })
    .andWhere((q) =>
      q
        .where({ status: 'queued' })
        .orWhere((stale) =>
          stale.where({ status: 'uploading' }).andWhere('updated_at', '<', new Date(now.getTime() - STALE_UPLOAD_MS)),
        ),
    )
    .update({ status: 'uploading', attempts: ctx.db.raw('attempts + 1'), updated_at: now })
    .returning('*')) as UploadRow[];
  if (!upload) return; // done, failed, or another job has it
  const finish = async (changes: Partial<UploadRow>) => {
    await ctx
      .db('box_uploads')
      .where({ id: upload.id })
      .update({ ...changes, updated_at: ctx.clock.now() });
  };
  const retriesLeft = job.retryCount < ctx.config.retryLimit;
  try {
    await attempt(ctx, upload, finish, retriesLeft);
  } catch (error) {
    if (error instanceof RetryLater) throw error;
    // Anything unforeseen (the database, the files): the row must not stay 'uploading'.
    ctx.log.warn({ box: describeBoxError(error), uploadId: upload.id }, 'box upload broke off');
    await finish(retriesLeft ? { status: 'queued' } : { status: 'failed', error_code: 'BOX_UNAVAILABLE' });
    if (retriesLeft) throw new RetryLater(`box upload ${upload.id}: broke off; retrying`);
  }
}

/** Thrown to have the queue try the upload again; carries nothing of Box's request. */
class RetryLater extends Error {}

async function attempt(
  ctx: Ctx,
  upload: UploadRow,
  finish: (changes: Partial<UploadRow>) => Promise<void>,
  retriesLeft: boolean,
): Promise<void> {
  const connection = await ctx
    .db('box_connections')
    .where({ organization_id: upload.organization_id })
    .first<ConnectionRow | undefined>();
  if (!connection || !connection.tokens_sealed) return finish({ status: 'failed', error_code: 'BOX_NOT_CONNECTED' });
  if (connection.status === 'auth_failed') return finish({ status: 'failed', error_code: 'BOX_AUTH_FAILED' });

  let files: CompletedDocumentFiles;
  try {
    files = await ctx.documents.completedFiles(upload.document_id);
  } catch (error) {
    if (error instanceof AppError) return finish({ status: 'failed', error_code: error.code });
    throw error;
  }
  try {
    const sent = await sendFiles(ctx, connection, files);
    const now = ctx.clock.now();
    await finish({
      status: 'done',
      error_code: null,
      box_folder_id: sent.folderId,
      box_file_id_document: sent.document,
      box_file_id_certificate: sent.certificate,
      document_name: files.documentName,
      uploaded_at: now,
    });
    await ctx
      .db('box_connections')
      .where({ id: connection.id })
      .update({ last_upload_at: now, last_error_code: null, last_error_at: null, updated_at: now });
  } catch (error) {
    ctx.log.warn({ box: describeBoxError(error), uploadId: upload.id }, 'box upload failed');
    // A connection replaced or removed while this ran: its tokens are gone, which is not the new one's failure.
    const current = await ctx.db('box_connections').where({ id: connection.id }).first('id');
    if (!current) return finish({ status: 'failed', error_code: 'BOX_NOT_CONNECTED' });
    if (isAuthFailure(error)) {
      await markAuthFailed(ctx, connection);
      return finish({ status: 'failed', error_code: 'BOX_AUTH_FAILED' });
    }
    const now = ctx.clock.now();
    const code = boxStatus(error) === 404 ? 'BOX_FOLDER_NOT_FOUND' : 'BOX_UNAVAILABLE';
    await ctx
      .db('box_connections')
      .where({ id: connection.id })
      .update({ last_error_code: code, last_error_at: now, updated_at: now });
    if (isTransient(error) && retriesLeft) {
      await finish({ status: 'queued', error_code: code });
      // The SDK's error carries the request (its Authorization header): only its description goes to the queue's log.
      throw new RetryLater(`box upload ${upload.id}: ${JSON.stringify(describeBoxError(error))}; retrying`);
    }
    await finish({ status: 'failed', error_code: code });
  }
}
