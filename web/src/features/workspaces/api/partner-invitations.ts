import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PartnerInvitation = components['schemas']['WorkspaceInvitation'];

export interface NewPartnerInvitation {
  email: string;
  locale: 'ja' | 'en';
  isPublic: boolean;
  isEditable: boolean;
}

/** GET /workspaces/{workspaceId}/invitations (listWorkspaceInvitations): partner invitations with their state. */
export async function listPartnerInvitations(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}/invitations', { params: { path: { workspaceId } } })).data;
}

export const partnerInvitationsQueryOptions = (workspaceId: string) =>
  queryOptions({
    queryKey: ['workspaces', 'invitations', workspaceId],
    queryFn: () => listPartnerInvitations(workspaceId),
  });

export function usePartnerInvitations(workspaceId: string) {
  return useQuery(partnerInvitationsQueryOptions(workspaceId));
}

/** POST /workspaces/{workspaceId}/invitations (invitePartnerOrganization): mails the join link. */
export async function invitePartner({
  workspaceId,
  invitation,
}: {
  workspaceId: string;
  invitation: NewPartnerInvitation;
}) {
  return unwrap(
    await api.POST('/workspaces/{workspaceId}/invitations', {
      params: { path: { workspaceId } },
      body: { data: { type: 'WorkspaceInvitation', attributes: invitation } },
    }),
  ).data;
}

/** POST /workspace-invitations/{invitationId}/cancel or /resend, with the invitation's lockVersion. */
export async function changePartnerInvitation(input: {
  workspaceId: string;
  invitation: PartnerInvitation;
  action: 'cancel' | 'resend';
}) {
  const options = {
    params: { path: { invitationId: input.invitation.id } },
    body: {
      data: {
        type: 'WorkspaceInvitation' as const,
        attributes: { lockVersion: input.invitation.attributes.lockVersion },
      },
    },
  };
  const result =
    input.action === 'cancel'
      ? await api.POST('/workspace-invitations/{invitationId}/cancel', options)
      : await api.POST('/workspace-invitations/{invitationId}/resend', options);
  return unwrap(result).data;
}

function useInvitationChange<I extends { workspaceId: string }, R>(mutationFn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: (_result, _error, input) =>
      queryClient.invalidateQueries({ queryKey: ['workspaces', 'invitations', input.workspaceId] }),
  });
}

export const useInvitePartner = () => useInvitationChange(invitePartner);
export const useChangePartnerInvitation = () => useInvitationChange(changePartnerInvitation);
