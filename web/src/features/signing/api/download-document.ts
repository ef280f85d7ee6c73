import { useQuery } from '@tanstack/react-query';
import { downloadedFile, saveBlob } from '../../../api/download.ts';
import { ApiError } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /documents/{documentId}/file (downloadDocument): one version's bytes (the latest without `version`). */
export async function downloadDocument(documentId: string, version?: number) {
  const result = await api.GET('/documents/{documentId}/file', {
    params: { path: { documentId }, query: version === undefined ? {} : { version } },
    parseAs: 'blob',
  });
  return downloadedFile(result, 'document.pdf');
}

/** Saves the latest version (the signed PDF after a signature) as the browser's download. */
export async function saveLatestVersion(documentId: string) {
  const { blob, fileName } = await downloadDocument(documentId);
  saveBlob(blob, fileName);
}

/** The bytes of the version to sign; asked again every 3 s while the server still scans it. */
export function useDocumentFile(documentId: string, version: number | undefined) {
  return useQuery({
    queryKey: ['documents', 'file', documentId, version],
    queryFn: () => downloadDocument(documentId, version),
    enabled: version !== undefined,
    staleTime: Infinity,
    retry: (count, error) => error instanceof ApiError && error.code === 'DOCUMENT_BEING_SCANNED' && count < 200,
    retryDelay: 3000,
  });
}
