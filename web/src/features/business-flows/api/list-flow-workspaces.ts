import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /workspaces (listWorkspaces): the first 100 visible workspaces by name, for the search and creation selects. */
export async function listFlowWorkspaces() {
  const body = unwrap(await api.GET('/workspaces', { params: { query: { sort: 'name', 'page[size]': 100 } } }));
  return body.data.map((w) => ({ id: w.id, name: w.attributes.name, canEdit: w.attributes.canEdit }));
}

export const flowWorkspacesQueryOptions = () =>
  queryOptions({ queryKey: ['workspaces', 'options'], queryFn: listFlowWorkspaces });

export function useFlowWorkspaces() {
  return useQuery(flowWorkspacesQueryOptions());
}
