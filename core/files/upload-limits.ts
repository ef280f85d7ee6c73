/*
 * THE configuration of uploads: for each place a file can be uploaded to, how large it may be and which kinds of
 * file it accepts. The multipart reader (core/http/multipart-body.ts) enforces `maxBytes` while streaming, and the
 * content inspection (core/files/inspect.ts) checks the kind by content, never by extension.
 */

import { MAX_TASKS } from '../modules/tasks/rules.ts';
import { SIGNATURE_RESERVE } from '../signing/pades.ts';

/** A kind of file recognised by its content. */
export type UploadKind = 'pdf' | 'csv' | 'png' | 'jpeg' | 'gif';

/** Where a file is uploaded to. */
export type UploadPlace = 'document' | 'attachment' | 'seal-image' | 'e-certificate' | 'verification';

export interface UploadLimit {
  /** The largest file accepted, in bytes: a file of exactly this size is accepted, one byte more is refused. */
  maxBytes: number;
  /** The kinds of file accepted, checked by content. */
  allowed: readonly UploadKind[];
}

/**
 * The one unit of every size limit: "MB" means 1,048,576 bytes (a mebibyte), the size Windows Explorer shows as
 * "MB", so a file the user's computer calls 30 MB fits a 30 MB limit. Messages, the contract and the README use it.
 */
const MB = 1024 * 1024;
const KB = 1024;
const DOCUMENT_MAX_BYTES = 30 * MB;

/**
 * What the signing engine adds to a document at most (core/signing/pades.ts), so the service's own signed output of
 * a largest document can be verified:
 *   - each of the MAX_TASKS (30) signatures is an incremental update with the CMS reserve written as hex
 *     (2 × SIGNATURE_RESERVE = 48 KiB) plus the revision's objects — signature dictionary, field, widget, the
 *     rewritten page and AcroForm, xref and trailer, its appearance with the Japanese font subset and a seal image
 *     of typical size — allowed 64 KiB (measured: 1.2 KiB without an appearance, 6 KiB with a seal and two lines);
 *   - a long-term document gets a DSS revision (certificates, CRLs, one VRI entry per signature: allowed 64 KiB) and
 *     a document timestamp (its 12 KiB reserve as hex plus 8 KiB of objects) when signed and at each renewal,
 *     allowed 10 renewals (one a year over a ten-year retention; a TSA certificate lasts a year or more).
 * 30 × 112 KiB + 11 × 96 KiB ≈ 4.3 MB, rounded up to whole megabytes. Large drawn images are the signers' content:
 * only a typical seal image is allowed for.
 */
const SIGNATURE_REVISION_BYTES = 2 * SIGNATURE_RESERVE + 2 + 64 * KB;
const LONG_TERM_REVISIONS = 1 + 10;
const LONG_TERM_REVISION_BYTES = 64 * KB + (2 * 12 * KB + 2 + 8 * KB);
const SIGNED_OUTPUT_HEADROOM =
  Math.ceil((MAX_TASKS * SIGNATURE_REVISION_BYTES + LONG_TERM_REVISIONS * LONG_TERM_REVISION_BYTES) / MB) * MB;

export const UPLOAD_LIMITS: Readonly<Record<UploadPlace, UploadLimit>> = {
  // A business flow's document, to be signed, approved or read: PDF only.
  document: { maxBytes: DOCUMENT_MAX_BYTES, allowed: ['pdf'] },
  // An attachment beside the documents (data and images as well as PDFs).
  attachment: { maxBytes: 20 * MB, allowed: ['pdf', 'csv', 'png', 'jpeg', 'gif'] },
  // A user's seal (sign) image.
  'seal-image': { maxBytes: 1 * MB, allowed: ['png', 'jpeg', 'gif'] },
  // A PKCS#12 e-certificate: not an inspected kind (its content is checked by opening it with the PIN).
  'e-certificate': { maxBytes: 1 * MB, allowed: [] },
  // A PDF uploaded only to have its signatures verified; nothing is stored. Room for the signatures, DSS and document
  // timestamps the engine adds to a largest document (35 MB in all).
  verification: { maxBytes: DOCUMENT_MAX_BYTES + SIGNED_OUTPUT_HEADROOM, allowed: ['pdf'] },
};

/** The longest file name (and document name) accepted, in characters. */
export const FILE_NAME_MAX_LENGTH = 100;

/** The limit in whole MB (1 MB = 1,048,576 bytes), as error messages show it ({maxMb}). */
export function maxMbOf(limit: UploadLimit): number {
  return Math.floor(limit.maxBytes / MB);
}
