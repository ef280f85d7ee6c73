import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { downloadedFile, saveBlob } from '../../../api/download.ts';
import { api } from '../../../session/session.ts';
import type { FlowSearch } from '../search-params.ts';
import { searchFilter } from './search-business-flows.ts';

/**
 * POST /business-flows/export (exportBusinessFlowsCsv): the search's flows as CSV, saved as a download. More than
 * 1,000 matches is 422 CSV_EXPORT_LIMIT_EXCEEDED (with max and total).
 */
export async function exportBusinessFlows(search: FlowSearch) {
  const body = {
    filter: searchFilter(search),
    sort: search.sort,
  } as components['schemas']['BusinessFlowExportRequest'];
  const result = await api.POST('/business-flows/export', { body, parseAs: 'blob' });
  const { blob, fileName } = await downloadedFile(result, 'business-flows.csv');
  saveBlob(blob, fileName);
}

export function useExportBusinessFlows() {
  return useMutation({ mutationFn: exportBusinessFlows });
}
