import { useMutation } from '@tanstack/react-query';
import { downloadedFile, saveBlob } from '../../../api/download.ts';
import { api } from '../../../session/session.ts';

export interface DownloadBillingInput {
  statementId: string;
  number: string;
  format: 'pdf' | 'csv';
}

/**
 * GET /billing/statements/{statementId}/pdf or /csv (downloadBillingStatementPdf / downloadBillingStatementCsv):
 * the file stored when the month was closed, under the server's name (`{number}.pdf`).
 */
export async function downloadBillingStatement({ statementId, number, format }: DownloadBillingInput) {
  const init = { params: { path: { statementId } }, parseAs: 'blob' as const };
  const result =
    format === 'pdf'
      ? await api.GET('/billing/statements/{statementId}/pdf', init)
      : await api.GET('/billing/statements/{statementId}/csv', init);
  return downloadedFile(result, `${number}.${format}`);
}

/** Downloads a statement's PDF or CSV and saves it. */
export function useDownloadBillingStatement() {
  return useMutation({
    mutationFn: downloadBillingStatement,
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
  });
}
