import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { useInvitationChange } from './invite-one-time-user.ts';

export interface InvitationRef {
  invitationId: string;
  lockVersion: number;
}

const request = ({ invitationId, lockVersion }: InvitationRef) => ({
  params: { path: { invitationId } },
  body: { data: { type: 'OneTimeInvitation' as const, attributes: { lockVersion } } },
});

/** POST /one-time-invitations/{invitationId}/cancel (cancelOneTimeInvitation): link, code, QR and sessions die. */
export async function cancelOneTimeInvitation(ref: InvitationRef) {
  return unwrap(await api.POST('/one-time-invitations/{invitationId}/cancel', request(ref))).data;
}

/** POST /one-time-invitations/{invitationId}/resend (resendOneTimeInvitation): a new link; earlier ones die. */
export async function resendOneTimeInvitation(ref: InvitationRef) {
  return unwrap(await api.POST('/one-time-invitations/{invitationId}/resend', request(ref))).data;
}

/** POST /one-time-invitations/{invitationId}/reinvite (reinviteOneTimeUser): a cancelled invitation lives again. */
export async function reinviteOneTimeUser(ref: InvitationRef) {
  return unwrap(await api.POST('/one-time-invitations/{invitationId}/reinvite', request(ref))).data;
}

export const useCancelInvitation = () => useInvitationChange(cancelOneTimeInvitation);
export const useResendInvitation = () => useInvitationChange(resendOneTimeInvitation);
export const useReinvite = () => useInvitationChange(reinviteOneTimeUser);
