import { useMutation } from '@tanstack/react-query';
import { downloadedFile, saveBlob } from '../../../api/download.ts';
import { api } from '../../../session/session.ts';
import type { BatchTarget } from './import-csv.ts';

/**
 * GET /batch/users or /batch/groups (exportUsersCsv / exportGroupsCsv): the CSV file (at most 1,000 items; more is
 * refused with CSV_EXPORT_LIMIT_EXCEEDED), returned as a Blob with its file name.
 */
export async function exportCsv(input: { target: BatchTarget; q: string }) {
  const query = input.q ? { 'filter[q]': input.q } : {};
  const init = { params: { query }, parseAs: 'blob' as const };
  const result = input.target === 'users' ? await api.GET('/batch/users', init) : await api.GET('/batch/groups', init);
  return downloadedFile(result, `${input.target}.csv`);
}

export function useExportCsv() {
  return useMutation({
    mutationFn: exportCsv,
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
  });
}
