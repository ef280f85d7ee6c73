import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type User = components['schemas']['User'];

/** GET /users/{userId} (getUser). */
export async function getUser(userId: string) {
  return unwrap(await api.GET('/users/{userId}', { params: { path: { userId } } })).data;
}

export const userQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['users', 'detail', userId], queryFn: () => getUser(userId) });

export function useUser(userId: string, enabled = true) {
  return useQuery({ ...userQueryOptions(userId), enabled });
}
