import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** DELETE /workspaces/{workspaceId} (deleteWorkspace): refused while it has business flows (409 WORKSPACE_HAS_BUSINESS_FLOWS). */
export async function deleteWorkspace(workspaceId: string) {
  unwrap(await api.DELETE('/workspaces/{workspaceId}', { params: { path: { workspaceId } } }));
}

export function useDeleteWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkspace,
    onSuccess: (_, workspaceId) => {
      queryClient.removeQueries({ queryKey: ['workspaces', 'detail', workspaceId] });
      return queryClient.invalidateQueries({ queryKey: ['workspaces', 'list'] });
    },
  });
}
