/*
 * THE configuration of uploads: for each place a file can be uploaded to, how large it may be and which kinds of
 * file it accepts. The multipart reader (core/http/multipart-body.ts) enforces `maxBytes` while streaming, and the
 * content inspection (core/files/inspect.ts) checks the kind by content, never by extension.
 */

/** A kind of file recognised by its content. */
export type UploadKind = 'pdf' | 'csv' | 'png' | 'jpeg' | 'gif';

/** Where a file is uploaded to. */
export type UploadPlace = 'document' | 'attachment' | 'seal-image' | 'e-certificate' | 'verification';

export interface UploadLimit {
  /** The largest file accepted, in bytes. */
  maxBytes: number;
  /** The kinds of file accepted, checked by content. */
  allowed: readonly UploadKind[];
}

const MB = 1024 * 1024;

export const UPLOAD_LIMITS: Readonly<Record<UploadPlace, UploadLimit>> = {
  // A business flow's document, to be signed, approved or read: PDF only.
  document: { maxBytes: 30 * MB, allowed: ['pdf'] },
  // An attachment beside the documents (data and images as well as PDFs).
  attachment: { maxBytes: 20 * MB, allowed: ['pdf', 'csv', 'png', 'jpeg', 'gif'] },
  // A user's seal (sign) image.
  'seal-image': { maxBytes: 1 * MB, allowed: ['png', 'jpeg', 'gif'] },
  // A PKCS#12 e-certificate: not an inspected kind (its content is checked by opening it with the PIN).
  'e-certificate': { maxBytes: 1 * MB, allowed: [] },
  // A PDF uploaded only to have its signatures verified; nothing is stored.
  verification: { maxBytes: 30 * MB, allowed: ['pdf'] },
};

/** The longest file name (and document name) accepted, in characters. */
export const FILE_NAME_MAX_LENGTH = 100;

/** The limit in whole megabytes, as error messages show it ({maxMb}). */
export function maxMbOf(limit: UploadLimit): number {
  return Math.floor(limit.maxBytes / MB);
}
