import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

type Query = NonNullable<paths['/users']['get']['parameters']['query']>;
export type UserSort = NonNullable<Query['sort']>;
export type UserStatus = NonNullable<Query['filter[status]']>;

/** GET /users (listUsers): one page of the organization's users, of one status when asked. */
export async function listUsers(params: ListParams<UserSort>, status?: UserStatus) {
  const query = { ...listQuery(params), ...(status ? { 'filter[status]': status } : {}) };
  return unwrap(await api.GET('/users', { params: { query } }));
}

export const usersQueryOptions = (params: ListParams<UserSort>, status?: UserStatus) =>
  queryOptions({ queryKey: ['users', 'list', params, status ?? 'all'], queryFn: () => listUsers(params, status) });

/** The page keeps showing the previous rows while the next page loads. */
export function useUsers(params: ListParams<UserSort>, status?: UserStatus) {
  return useQuery({ ...usersQueryOptions(params, status), placeholderData: keepPreviousData });
}
