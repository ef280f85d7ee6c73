import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

export type WorkspaceFlowSort = 'name' | '-name' | 'updatedAt' | '-updatedAt';

/** GET /business-flows?filter[workspaceId]= (listBusinessFlows): one page of a workspace's business flows. */
export async function listWorkspaceFlows(workspaceId: string, params: ListParams<WorkspaceFlowSort>) {
  const query = { ...listQuery(params), 'filter[workspaceId]': workspaceId };
  return unwrap(await api.GET('/business-flows', { params: { query } }));
}

export const workspaceFlowsQueryOptions = (workspaceId: string, params: ListParams<WorkspaceFlowSort>) =>
  queryOptions({
    queryKey: ['business-flows', 'list', 'workspace', workspaceId, params],
    queryFn: () => listWorkspaceFlows(workspaceId, params),
  });

export function useWorkspaceFlows(workspaceId: string, params: ListParams<WorkspaceFlowSort>) {
  return useQuery({ ...workspaceFlowsQueryOptions(workspaceId, params), placeholderData: keepPreviousData });
}
