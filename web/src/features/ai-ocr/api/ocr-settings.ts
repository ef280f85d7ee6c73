import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OcrSettings = components['schemas']['OcrSettings']['attributes'];

const KEY = ['ai-ocr', 'settings'];

/** GET /ocr/settings (getOcrSettings): the automatic confirmation threshold and this month's pages. */
export async function getOcrSettings(): Promise<OcrSettings> {
  return unwrap(await api.GET('/ocr/settings')).data.attributes;
}

export const ocrSettingsQueryOptions = () => queryOptions({ queryKey: KEY, queryFn: getOcrSettings });

export function useOcrSettings() {
  return useQuery(ocrSettingsQueryOptions());
}

/** PUT /ocr/settings (updateOcrSettings): administrators; null turns automatic confirmation off. */
export function useUpdateOcrSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (autoAcceptConfidence: number | null) =>
      unwrap(await api.PUT('/ocr/settings', { body: { data: { attributes: { autoAcceptConfidence } } } })).data
        .attributes,
    onSuccess: (settings) => client.setQueryData(KEY, settings),
  });
}
