import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export interface WorkspaceUpdateInput {
  workspaceId: string;
  attributes: {
    name: string;
    systemLinkId: string | null;
    description: string | null;
    mailNotification: boolean;
    lockVersion: number;
  };
}

/** PATCH /workspaces/{workspaceId} (updateWorkspace): a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER. */
export async function updateWorkspace({ workspaceId, attributes }: WorkspaceUpdateInput) {
  return unwrap(
    await api.PATCH('/workspaces/{workspaceId}', {
      params: { path: { workspaceId } },
      body: { data: { type: 'Workspace', attributes } },
    }),
  ).data;
}

export function useUpdateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkspace,
    onSuccess: (workspace) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['workspaces', 'detail', workspace.id] }),
        queryClient.invalidateQueries({ queryKey: ['workspaces', 'list'] }),
      ]),
  });
}
