/*
 * The file of a document (downloadDocument): the latest version or `?version=N`. A version still being scanned is
 * 409 DOCUMENT_BEING_SCANNED, a malicious or unscannable one DOCUMENT_MALICIOUS / DOCUMENT_SCAN_FAILED.
 */
import type { Readable } from 'node:stream';
import type { Knex } from 'knex';
import type { FileStore } from '../../files/blob-store.ts';
import { assertScanAllowsUse, type DocumentVersionRow } from '../../files/scan.ts';
import type { GuestPrincipal, Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { cleanFileName } from '../../http/file-name.ts';
import { documentAccess } from '../workspaces/access.ts';

/**
 * `attachment` with an ASCII fallback name and the UTF-8 name (RFC 6266 / RFC 5987), without the bidi overrides and
 * other hidden characters a name stored before uploads were cleaned may hold.
 */
export function contentDisposition(storedName: string): string {
  const fileName = cleanFileName(storedName);
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The name a download of a document is saved under: `{document name}.pdf` for an uploaded version,
 * `{document name}_signed.pdf` for a version our signing engine appended (signature, timestamp, validation data),
 * `{document name}{suffix}.pdf` for files made from it (the completion certificate). Characters no file system takes
 * in a name become `_`.
 */
export function documentFileName(documentName: string, variant: 'original' | 'signed' | { suffix: string }): string {
  const base =
    [
      ...cleanFileName(documentName)
        .replace(/[\\/:*?"<>|]/g, '_')
        .trim(),
    ]
      .slice(0, 100)
      .join('') || 'document';
  const suffix = variant === 'original' ? '' : variant === 'signed' ? '_signed' : variant.suffix;
  return `${base}${suffix}.pdf`;
}

/** Whether a version is an upload or one our signing engine appended (kind: signature, timestamp, ltv). */
export const versionVariant = (version: DocumentVersionRow & { kind?: string }) =>
  (version.kind ?? 'upload') === 'upload' ? ('original' as const) : ('signed' as const);

export async function documentFile(
  db: Knex,
  files: FileStore,
  caller: Principal | GuestPrincipal,
  documentId: string,
  versionNumber: number | undefined,
): Promise<{ stream: Readable; headers: Record<string, string> }> {
  const { document } = await documentAccess(db, caller, documentId);
  const query = db('document_versions').where('document_id', documentId);
  const version = (await (versionNumber === undefined
    ? query.orderBy('version', 'desc').first()
    : query.where('version', versionNumber).first())) as DocumentVersionRow | undefined;
  if (!version) throw new AppError('NOT_FOUND', { detail: `version ${versionNumber} not found` });
  assertScanAllowsUse(version);
  const stream = await files.stream(version.sha256);
  return {
    stream,
    headers: {
      'Content-Type': version.content_type,
      'Content-Length': String(version.size_bytes),
      'Content-Disposition': contentDisposition(documentFileName(String(document.name), versionVariant(version))),
      'Cache-Control': 'private, no-store',
    },
  };
}
