import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type Group = components['schemas']['Group'];

/** GET /groups/{groupId} (getGroup). */
export async function getGroup(groupId: string) {
  return unwrap(await api.GET('/groups/{groupId}', { params: { path: { groupId } } })).data;
}

export const groupQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: ['groups', 'detail', groupId], queryFn: () => getGroup(groupId) });

export function useGroup(groupId: string) {
  return useQuery(groupQueryOptions(groupId));
}
