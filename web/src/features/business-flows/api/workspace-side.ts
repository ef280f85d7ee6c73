import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/**
 * Whether the user is on the workspace owner's side (GET /workspaces/{workspaceId}, getWorkspace): only that side
 * changes a flow's status, and only it edits with the organization's own property definitions.
 */
export function useOwnerSide(workspaceId: string) {
  return useQuery({
    queryKey: ['workspaces', 'detail', workspaceId],
    queryFn: async () => unwrap(await api.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId } } })).data,
    select: (workspace) => workspace.attributes.isOwnerOrganization,
  });
}
