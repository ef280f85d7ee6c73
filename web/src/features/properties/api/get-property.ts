import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /properties/{propertyId} (getProperty): one definition with its options and what is in use. */
export async function getProperty(propertyId: string) {
  return unwrap(await api.GET('/properties/{propertyId}', { params: { path: { propertyId } } })).data;
}

export const propertyQueryOptions = (propertyId: string) =>
  queryOptions({ queryKey: ['properties', 'detail', propertyId], queryFn: () => getProperty(propertyId) });

export function useProperty(propertyId: string) {
  return useQuery(propertyQueryOptions(propertyId));
}
