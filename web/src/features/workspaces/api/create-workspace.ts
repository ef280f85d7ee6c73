import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export interface WorkspaceCreateInput {
  name: string;
  systemLinkId: string | null;
  description: string | null;
  mailNotification: boolean;
  groupIds: string[];
}

/**
 * POST /workspaces (createWorkspace) with the chosen own groups as participants (at least one: 422
 * WORKSPACE_PARTICIPANT_REQUIRED); a taken ID for system link is 409 SYSTEM_LINK_ID_TAKEN. The own groups see and
 * edit every business flow: their members are the ones who run the workspace.
 */
export async function createWorkspace({ groupIds, ...attributes }: WorkspaceCreateInput) {
  const participants = groupIds.map((groupId) => ({
    kind: 'group' as const,
    groupId,
    isPublic: true,
    isEditable: true,
  }));
  return unwrap(
    await api.POST('/workspaces', {
      body: { data: { type: 'Workspace', attributes: { ...attributes, participants } } },
    }),
  ).data;
}

export function useCreateWorkspace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWorkspace,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['workspaces', 'list'] }),
  });
}
