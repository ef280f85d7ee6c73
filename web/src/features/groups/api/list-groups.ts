import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

export type GroupSort = NonNullable<NonNullable<paths['/groups']['get']['parameters']['query']>['sort']>;

/** GET /groups (listGroups): one page of groups, with the plan's maximum in meta.maxGroups. */
export async function listGroups(params: ListParams<GroupSort>) {
  return unwrap(await api.GET('/groups', { params: { query: listQuery(params) } }));
}

export const groupsQueryOptions = (params: ListParams<GroupSort>) =>
  queryOptions({ queryKey: ['groups', 'list', params], queryFn: () => listGroups(params) });

export function useGroups(params: ListParams<GroupSort>) {
  return useQuery({ ...groupsQueryOptions(params), placeholderData: keepPreviousData });
}
