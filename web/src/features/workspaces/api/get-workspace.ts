import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type WorkspaceDetail = components['schemas']['WorkspaceResponse']['data'];

/** GET /workspaces/{workspaceId} (getWorkspace): attributes, participants and the caller's rights. */
export async function getWorkspace(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId } } })).data;
}

export const workspaceQueryOptions = (workspaceId: string) =>
  queryOptions({ queryKey: ['workspaces', 'detail', workspaceId], queryFn: () => getWorkspace(workspaceId) });

export function useWorkspace(workspaceId: string) {
  return useQuery(workspaceQueryOptions(workspaceId));
}
