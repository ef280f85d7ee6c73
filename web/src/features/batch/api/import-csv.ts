import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BatchTarget = 'users' | 'groups';
export type BatchImport = components['schemas']['BatchImportResult']['data']['attributes'];
export type BatchRow = components['schemas']['BatchRowResult'];

/**
 * POST /batch/users or /batch/groups (importUsersCsv / importGroupsCsv): sends the file's bytes as text/csv, so the
 * server decodes UTF-8 or Shift_JIS itself. `dryRun` previews without writing anything.
 */
export async function importCsv(input: { target: BatchTarget; file: Blob; dryRun: boolean }) {
  const init = {
    params: { query: { dryRun: input.dryRun } },
    // The file goes as it is: openapi-fetch would JSON-encode it.
    body: input.file as unknown as string,
    bodySerializer: (body: unknown) => body as BodyInit,
    headers: { 'Content-Type': 'text/csv' },
  };
  const result =
    input.target === 'users' ? await api.POST('/batch/users', init) : await api.POST('/batch/groups', init);
  return unwrap(result).data.attributes;
}

export function useImportCsv() {
  return useMutation({ mutationFn: importCsv });
}
