import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /me (getCurrentUser), under the app's shared ['me'] key: only administrators change roles. */
export async function getMe() {
  return unwrap(await api.GET('/me')).data;
}

export const meQueryOptions = () => queryOptions({ queryKey: ['me'], queryFn: getMe });

export function useMe() {
  return useQuery(meQueryOptions());
}
