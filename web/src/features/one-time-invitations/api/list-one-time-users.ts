import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OneTimeUser = components['schemas']['OneTimeUser'];

/** GET /workspaces/{workspaceId}/one-time-users (listOneTimeUsers): each guest with their invitations. */
export async function listOneTimeUsers(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}/one-time-users', { params: { path: { workspaceId } } })).data;
}

export const oneTimeUsersQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: ['one-time-invitations', 'workspace', workspaceId],
    queryFn: () => listOneTimeUsers(workspaceId),
  });

export function useOneTimeUsers(workspaceId: string) {
  return useQuery(oneTimeUsersQueryOptions(workspaceId));
}
