import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

export type RoleSort = NonNullable<NonNullable<paths['/roles']['get']['parameters']['query']>['sort']>;
export type Role = components['schemas']['Role'];

/** GET /roles (listRoles): one page of roles, with the organization's maximum in meta.maxRoles. */
export async function listRoles(params: ListParams<RoleSort>) {
  return unwrap(await api.GET('/roles', { params: { query: listQuery(params) } }));
}

export const rolesQueryOptions = (params: ListParams<RoleSort>) =>
  queryOptions({ queryKey: ['roles', 'list', params], queryFn: () => listRoles(params) });

export function useRoles(params: ListParams<RoleSort>) {
  return useQuery({ ...rolesQueryOptions(params), placeholderData: keepPreviousData });
}
