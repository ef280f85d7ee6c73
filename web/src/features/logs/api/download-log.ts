import { useMutation } from '@tanstack/react-query';
import { toApiError, toApiErrorFromBlob } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** Which file: the operation log or the sign record (seal) ledger. */
export type LogKind = 'operationLogs' | 'signRecords';

export interface DownloadLogInput {
  kind: LogKind;
  from: string;
  to: string;
}

/** The file name of Content-Disposition (`filename*` first), or a fallback. */
export function fileNameOf(header: string | null, fallback: string): string {
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header ?? '');
  if (extended) return decodeURIComponent(extended[1]!);
  return /filename="?([^";]+)"?/.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * GET /operation-logs/download or /sign-records/download (downloadOperationLogs / downloadSignRecords): the CSV of
 * a range of at most 31 days, as a Blob with the server's file name.
 */
export async function downloadLog({ kind, from, to }: DownloadLogInput) {
  const init = { params: { query: { from, to } }, parseAs: 'blob' as const };
  const result =
    kind === 'operationLogs'
      ? await api.GET('/operation-logs/download', init)
      : await api.GET('/sign-records/download', init);
  if (!result.response.ok || !result.data) {
    // openapi-fetch usually parses the error body already; a Blob error body is read here.
    throw result.error instanceof Blob
      ? await toApiErrorFromBlob(result.response.status, result.error)
      : toApiError(result.response.status, result.error);
  }
  const fallback = `${kind === 'operationLogs' ? 'operation-logs' : 'sign-records'}_${from}_${to}.csv`;
  return {
    blob: result.data as Blob,
    fileName: fileNameOf(result.response.headers.get('content-disposition'), fallback),
  };
}

/** Saves a Blob as the browser's download, through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads one log and saves it under the server's file name. */
export function useDownloadLog() {
  return useMutation({
    mutationFn: downloadLog,
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
  });
}
