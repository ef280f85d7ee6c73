import { useQuery } from '@tanstack/react-query';
import { api } from '../session/session.ts';
import { downloadedFile, saveBlob } from './download.ts';
import { ApiError } from './errors.ts';

// The document's file is read by more than one feature (the preview and versions of documents, the signing screen
// and its signed PDF), so its fetcher lives here rather than in one of them.

/** GET /documents/{documentId}/file (downloadDocument): one version's bytes (the latest without `version`). */
export async function downloadDocument(documentId: string, version?: number) {
  const result = await api.GET('/documents/{documentId}/file', {
    params: { path: { documentId }, query: version === undefined ? {} : { version } },
    parseAs: 'blob',
  });
  return downloadedFile(result, 'document.pdf');
}

/** Saves a version (the latest, e.g. the signed PDF after a signature, without `version`) as the browser's download. */
export async function saveDocumentFile(documentId: string, version?: number) {
  const { blob, fileName } = await downloadDocument(documentId, version);
  saveBlob(blob, fileName);
}

/**
 * GET /documents/{documentId}/completion-certificate (downloadCompletionCertificate): the completion certificate
 * (合意締結証明書) of a completed document, saved under the server's name (`{document name}_合意締結証明書.pdf`).
 */
export async function saveCompletionCertificate(documentId: string) {
  const result = await api.GET('/documents/{documentId}/completion-certificate', {
    params: { path: { documentId } },
    parseAs: 'blob',
  });
  const { blob, fileName } = await downloadedFile(result, 'certificate.pdf');
  saveBlob(blob, fileName);
}

/**
 * The bytes of the version to show. While the scan runs the server answers 409 DOCUMENT_BEING_SCANNED: the query
 * asks again every 3 s until the version is clean (or refused for good).
 */
export function useDocumentFile(documentId: string, version: number | undefined, enabled = true) {
  return useQuery({
    queryKey: ['documents', 'file', documentId, version],
    queryFn: () => downloadDocument(documentId, version),
    enabled: enabled && version !== undefined,
    staleTime: Infinity,
    retry: (count, error) => error instanceof ApiError && error.code === 'DOCUMENT_BEING_SCANNED' && count < 200,
    retryDelay: 3000,
  });
}
