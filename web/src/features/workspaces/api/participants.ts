import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** Participant changes bump the workspace's lockVersion, so each sends the one the screen read. */
interface WorkspaceRef {
  workspaceId: string;
  lockVersion: number;
}

export type NewParticipant =
  | { kind: 'group'; groupId: string; isPublic: boolean; isEditable: boolean }
  | { kind: 'organization'; organizationId: string; isPublic: boolean; isEditable: boolean };

/**
 * POST /workspaces/{workspaceId}/participants (addWorkspaceParticipant): an own group, or a partner organization
 * found by its corporate number (PARTNER_ORGANIZATION_NOT_FOUND, PARTNER_IS_OWN_ORGANIZATION,
 * WORKSPACE_PARTICIPANT_DUPLICATE).
 */
export async function addParticipant({
  workspaceId,
  lockVersion,
  participant,
}: WorkspaceRef & { participant: NewParticipant }) {
  return unwrap(
    await api.POST('/workspaces/{workspaceId}/participants', {
      params: { path: { workspaceId } },
      body: { data: { type: 'WorkspaceParticipant', attributes: { ...participant, lockVersion } } },
    }),
  );
}

/** PATCH /workspaces/{workspaceId}/participants/{participantId} (updateWorkspaceParticipant): the two flags. */
export async function updateParticipant(
  input: WorkspaceRef & { participantId: string; flags: { isPublic?: boolean; isEditable?: boolean } },
) {
  return unwrap(
    await api.PATCH('/workspaces/{workspaceId}/participants/{participantId}', {
      params: { path: { workspaceId: input.workspaceId, participantId: input.participantId } },
      body: { data: { type: 'WorkspaceParticipant', attributes: { ...input.flags, lockVersion: input.lockVersion } } },
    }),
  );
}

/** DELETE /workspaces/{workspaceId}/participants/{participantId} (removeWorkspaceParticipant): 409 while in use. */
export async function removeParticipant(input: WorkspaceRef & { participantId: string }) {
  unwrap(
    await api.DELETE('/workspaces/{workspaceId}/participants/{participantId}', {
      params: {
        path: { workspaceId: input.workspaceId, participantId: input.participantId },
        query: { lockVersion: input.lockVersion },
      },
    }),
  );
}

/** A participant change: the workspace (participants, lockVersion) and the list are read again; not on refusal. */
function useParticipantChange<I extends WorkspaceRef, R>(mutationFn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_result, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['workspaces', 'detail', input.workspaceId] }),
        queryClient.invalidateQueries({ queryKey: ['workspaces', 'list'] }),
      ]),
  });
}

export const useAddParticipant = () => useParticipantChange(addParticipant);
export const useUpdateParticipant = () => useParticipantChange(updateParticipant);
export const useRemoveParticipant = () => useParticipantChange(removeParticipant);
