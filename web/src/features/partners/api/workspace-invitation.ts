import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi, api } from '../../../session/session.ts';

export type InvitationSummary = components['schemas']['WorkspaceInvitationSummaryResponse']['data'];

/** GET /workspace-invitations/lookup (getWorkspaceInvitation): who invites whom, without sign-in. */
export async function getWorkspaceInvitation(token: string): Promise<InvitationSummary> {
  return unwrap(await anonymousApi.GET('/workspace-invitations/lookup', { params: { query: { token } } })).data;
}

/** A dead link answers for good (404, 410): never retried, never fetched again while the page is open. */
export const workspaceInvitationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['workspace-invitation', token],
    queryFn: () => getWorkspaceInvitation(token),
    retry: false,
    staleTime: 60_000,
    refetchOnWindowFocus: false,
  });

/** POST /workspace-invitations/accept (acceptWorkspaceInvitation): the caller's organization joins as a partner. */
export async function acceptWorkspaceInvitation(token: string) {
  return unwrap(
    await api.POST('/workspace-invitations/accept', {
      body: { data: { type: 'WorkspaceInvitationAcceptance', attributes: { token } } },
    }),
  ).data;
}

export function useAcceptWorkspaceInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acceptWorkspaceInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['workspaces'] }),
  });
}
