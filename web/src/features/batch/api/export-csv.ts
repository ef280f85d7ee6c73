import { useMutation } from '@tanstack/react-query';
import { toApiError } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { BatchTarget } from './import-csv.ts';

/** The file name the server proposes in Content-Disposition, or a fallback. */
function fileNameOf(response: Response, target: BatchTarget): string {
  const header = response.headers.get('content-disposition') ?? '';
  return /filename="?([^";]+)"?/.exec(header)?.[1] ?? `${target}.csv`;
}

/**
 * GET /batch/users or /batch/groups (exportUsersCsv / exportGroupsCsv): the CSV file (at most 1,000 items; more is
 * refused with CSV_EXPORT_LIMIT_EXCEEDED), returned as a Blob with its file name.
 */
export async function exportCsv(input: { target: BatchTarget; q: string }) {
  const query = input.q ? { 'filter[q]': input.q } : {};
  const init = { params: { query }, parseAs: 'blob' as const };
  const result = input.target === 'users' ? await api.GET('/batch/users', init) : await api.GET('/batch/groups', init);
  // openapi-fetch reads an error body as JSON whatever parseAs says.
  if (!result.response.ok || !result.data) throw toApiError(result.response.status, result.error);
  return { blob: result.data as Blob, fileName: fileNameOf(result.response, input.target) };
}

/** Saves a Blob through a temporary link, as the browser's download. */
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

export function useExportCsv() {
  return useMutation({
    mutationFn: exportCsv,
    onSuccess: ({ blob, fileName }) => saveBlob(blob, fileName),
  });
}
