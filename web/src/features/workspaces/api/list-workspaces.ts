import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

export type WorkspaceSort = NonNullable<NonNullable<paths['/workspaces']['get']['parameters']['query']>['sort']>;
export type Workspace = components['schemas']['Workspace'];

/** GET /workspaces (listWorkspaces): one page of the workspaces the user can see. */
export async function listWorkspaces(params: ListParams<WorkspaceSort>) {
  return unwrap(await api.GET('/workspaces', { params: { query: listQuery(params) } }));
}

export const workspacesQueryOptions = (params: ListParams<WorkspaceSort>) =>
  queryOptions({ queryKey: ['workspaces', 'list', params], queryFn: () => listWorkspaces(params) });

export function useWorkspaces(params: ListParams<WorkspaceSort>) {
  return useQuery({ ...workspacesQueryOptions(params), placeholderData: keepPreviousData });
}
