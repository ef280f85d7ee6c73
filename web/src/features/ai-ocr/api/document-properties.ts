import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type DocumentProperty = components['schemas']['Property'];

/** GET /properties?filter[scope]=20 (listProperties): the document-scope properties a position may read. */
export async function listDocumentProperties(): Promise<DocumentProperty[]> {
  return unwrap(await api.GET('/properties', { params: { query: { 'filter[scope]': 20, 'page[size]': 100 } } })).data;
}

export const documentPropertiesQueryOptions = () =>
  queryOptions({ queryKey: ['properties', 'list', 'document-scope', 'ai-ocr'], queryFn: listDocumentProperties });

export function useDocumentProperties(enabled = true) {
  return useQuery({ ...documentPropertiesQueryOptions(), enabled });
}
