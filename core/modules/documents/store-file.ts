/*
 * Checks an uploaded file by its content (core/files/inspect.ts, in the PDF worker pool: a PDF over its budget is
 * PDF_TOO_COMPLEX, a full pool PDF_WORK_BUSY) and writes it to the file store. Runs BEFORE the transaction that
 * inserts the version row (blob first, row second): a refused file is never stored, and a crash after the write
 * leaves only an orphan blob.
 */
import type { CoreDeps } from '../../deps.ts';
import type { UploadLimit } from '../../files/upload-limits.ts';
import type { UploadedFile } from '../../http/multipart-body.ts';

/** A file that passed inspection and is stored. */
export interface StoredUpload {
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  pageCount: number | null;
}

export async function inspectAndStore(deps: CoreDeps, file: UploadedFile, limit: UploadLimit): Promise<StoredUpload> {
  const inspected = await deps.pdfWork.run('inspect', {
    bytes: file.bytes,
    fileName: file.fileName,
    allowed: limit.allowed,
  });
  const { sha256, size } = await deps.files.put(file.bytes);
  return { fileName: file.fileName, contentType: inspected.contentType, size, sha256, pageCount: inspected.pageCount };
}
