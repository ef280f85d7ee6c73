import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/**
 * The own groups a user may put into a workspace: every group of the organization for an administrator (GET
 * /groups, listGroups, first 100 by name), otherwise the groups the user belongs to (GET /me, getCurrentUser).
 */
export async function listOwnGroups(): Promise<{ id: string; name: string }[]> {
  const me = unwrap(await api.GET('/me')).data.attributes;
  if (!me.isAdmin) return me.groups.map((group) => ({ id: group.id, name: group.name }));
  const body = unwrap(await api.GET('/groups', { params: { query: { sort: 'name', 'page[size]': 100 } } }));
  return body.data.map((group) => ({ id: group.id, name: group.attributes.name }));
}

export const ownGroupsQueryOptions = () =>
  queryOptions({ queryKey: ['workspaces', 'own-groups'], queryFn: listOwnGroups });

export function useOwnGroups() {
  return useQuery(ownGroupsQueryOptions());
}
