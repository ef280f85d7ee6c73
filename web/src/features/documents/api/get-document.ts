import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type DocumentDetail = components['schemas']['Document'];
export type DocumentAttributes = DocumentDetail['attributes'];

/** GET /documents/{documentId} (getDocument): the document, its versions, tasks, history and the caller's rights. */
export async function getDocument(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}', { params: { path: { documentId } } })).data;
}

export const documentQueryOptions = (documentId: string) =>
  queryOptions({ queryKey: ['documents', 'detail', documentId], queryFn: () => getDocument(documentId) });

/** The document; while its latest version is being scanned it is fetched again every 3 s until the verdict. */
export function useDocument(documentId: string) {
  return useQuery({
    ...documentQueryOptions(documentId),
    refetchInterval: (query) => (query.state.data?.attributes.currentVersion?.scanStatus === 'pending' ? 3000 : false),
  });
}
