import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import type { inviteAttributes } from '../invitation-form.ts';

/**
 * POST /business-flows/{businessFlowId}/one-time-invitations (inviteOneTimeUser): by e-mail the invitation mail
 * goes out now; by QR code the invitation waits for its QR code (openOneTimeQrCode).
 */
export async function inviteOneTimeUser(input: {
  businessFlowId: string;
  attributes: ReturnType<typeof inviteAttributes>;
}) {
  return unwrap(
    await api.POST('/business-flows/{businessFlowId}/one-time-invitations', {
      params: { path: { businessFlowId: input.businessFlowId } },
      body: { data: { type: 'OneTimeInvitation', attributes: input.attributes } },
    }),
  ).data;
}

/** Any invitation change: the flow's invitations, the workspace's one-time users and its participants change. */
export function useInvitationChange<I, R>(mutationFn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['one-time-invitations'] }),
        queryClient.invalidateQueries({ queryKey: ['workspaces', 'detail'] }),
      ]),
  });
}

export const useInviteOneTimeUser = () => useInvitationChange(inviteOneTimeUser);
