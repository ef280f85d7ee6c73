import { useMutation } from '@tanstack/react-query';
import { downloadedFile, saveBlob } from '../../../api/download.ts';
import { api } from '../../../session/session.ts';

/** Which file: the operation log or the sign record (seal) ledger. */
export type LogKind = 'operationLogs' | 'signRecords';

export interface DownloadLogInput {
  kind: LogKind;
  from: string;
  to: string;
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
  return downloadedFile(result, `${kind === 'operationLogs' ? 'operation-logs' : 'sign-records'}_${from}_${to}.csv`);
}

/** Downloads one log and saves it under the server's file name. */
export function useDownloadLog() {
  return useMutation({
    mutationFn: downloadLog,
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
  });
}
