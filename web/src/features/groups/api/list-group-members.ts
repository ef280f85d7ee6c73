import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

type Query = NonNullable<paths['/groups/{groupId}/members']['get']['parameters']['query']>;
export type MemberSort = NonNullable<Query['sort']>;
export type GroupMember = components['schemas']['GroupMember'];

/** GET /groups/{groupId}/members (listGroupMembers): one page of members. */
export async function listGroupMembers(groupId: string, params: ListParams<MemberSort>) {
  return unwrap(
    await api.GET('/groups/{groupId}/members', { params: { path: { groupId }, query: listQuery(params) } }),
  );
}

export const groupMembersQueryOptions = (groupId: string, params: ListParams<MemberSort>) =>
  queryOptions({
    queryKey: ['groups', 'members', groupId, params],
    queryFn: () => listGroupMembers(groupId, params),
  });

export function useGroupMembers(groupId: string, params: ListParams<MemberSort>) {
  return useQuery({ ...groupMembersQueryOptions(groupId, params), placeholderData: keepPreviousData });
}
