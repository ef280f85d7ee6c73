// What the browser checks before an upload, mirroring the server (which checks by content and answers FILE_*).

/**
 * The documents place's size limit (the server's configuration holds the real one and may be lower). MB means
 * 1,048,576 bytes, as on the server (core/files/upload-limits.ts): a file of exactly 30 MB is accepted.
 */
export const MAX_DOCUMENT_MB = 30;
export const MAX_FILE_NAME_LENGTH = 100;

export type FileProblem =
  | { code: 'FILE_REQUIRED' }
  | { code: 'FILE_EMPTY' }
  | { code: 'FILE_TOO_LARGE'; params: { maxMb: number } }
  | { code: 'FILE_NAME_TOO_LONG' }
  | { code: 'FILE_TYPE_NOT_ALLOWED'; params: { allowed: string } };

/** Starts with the PDF header `%PDF-` (the server looks deeper: encryption, active content, corruption). */
async function looksLikePdf(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 1024).arrayBuffer());
  const text = String.fromCharCode(...head);
  return text.includes('%PDF-');
}

/** The first problem of a file chosen for a document, or null when it may be sent. */
export async function checkDocumentFile(file: File | null): Promise<FileProblem | null> {
  if (!file) return { code: 'FILE_REQUIRED' };
  if (file.size === 0) return { code: 'FILE_EMPTY' };
  if (file.size > MAX_DOCUMENT_MB * 1024 * 1024) return { code: 'FILE_TOO_LARGE', params: { maxMb: MAX_DOCUMENT_MB } };
  if (file.name.length > MAX_FILE_NAME_LENGTH) return { code: 'FILE_NAME_TOO_LONG' };
  if (!(await looksLikePdf(file))) return { code: 'FILE_TYPE_NOT_ALLOWED', params: { allowed: 'PDF' } };
  return null;
}

/** The document name a file suggests: its name without the .pdf extension, cut to the limit. */
export function nameFromFile(fileName: string): string {
  return fileName.replace(/\.pdf$/i, '').slice(0, MAX_FILE_NAME_LENGTH);
}
