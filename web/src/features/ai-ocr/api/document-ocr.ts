import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OcrReading = components['schemas']['OcrReadingResponse']['data'];
export type OcrProposal = components['schemas']['OcrProposal'];
export type OcrDecision = components['schemas']['OcrDecision'];
export type OcrReadingStatus = components['schemas']['OcrReadingStatus'];

/** A reading still on its way: the panel asks again until it is done, failed or skipped. */
export const inFlight = (reading: OcrReading | undefined) =>
  reading?.attributes.status === 'queued' || reading?.attributes.status === 'reading';

/** GET /documents/{documentId}/ocr (getDocumentOcr): the latest reading and its proposals. */
export async function getDocumentOcr(documentId: string): Promise<OcrReading> {
  return unwrap(await api.GET('/documents/{documentId}/ocr', { params: { path: { documentId } } })).data;
}

export const documentOcrQueryOptions = (documentId: string) =>
  queryOptions({ queryKey: ['ai-ocr', 'document', documentId], queryFn: () => getDocumentOcr(documentId) });

/** A reading that is not yet of `version` (none at all, or of an older version). */
const behind = (reading: OcrReading | undefined, version: number) =>
  reading !== undefined && (reading.attributes.status === 'none' || (reading.attributes.version ?? 0) < version);

/**
 * The reading, asked again every 2 s while it runs, and while `awaitedVersion` (a version whose automatic reading
 * may still be queued) has no reading yet.
 */
export function useDocumentOcr(documentId: string, awaitedVersion: number | null = null) {
  return useQuery({
    ...documentOcrQueryOptions(documentId),
    refetchInterval: (query) =>
      inFlight(query.state.data) || (awaitedVersion !== null && behind(query.state.data, awaitedVersion))
        ? 2000
        : false,
  });
}

/** POST /documents/{documentId}/ocr (startDocumentOcr): queues a reading at the document template's positions. */
export function useStartDocumentOcr(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/documents/{documentId}/ocr', { params: { path: { documentId } }, body: {} })).data,
    onSuccess: (reading) => client.setQueryData(documentOcrQueryOptions(documentId).queryKey, reading),
  });
}

/**
 * POST /documents/{documentId}/ocr/decisions (decideDocumentOcr): accepted and edited values are written into the
 * document, so its detail is fetched again to show them.
 */
export function useDecideDocumentOcr(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (decisions: OcrDecision[]) =>
      unwrap(
        await api.POST('/documents/{documentId}/ocr/decisions', {
          params: { path: { documentId } },
          body: { data: { attributes: { decisions } } },
        }),
      ).data,
    onSuccess: (reading) => {
      client.setQueryData(documentOcrQueryOptions(documentId).queryKey, reading);
      return client.invalidateQueries({ queryKey: ['documents', 'detail', documentId] });
    },
  });
}
