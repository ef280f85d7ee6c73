/** The confirmed actions on an invitation (each a POST with the invitation's lockVersion). */
export type Action = 'resend' | 'cancel' | 'reinvite';

/** The parts of an invitation that decide what a member may do with it. */
interface InvitationState {
  status: 'invited' | 'registered' | 'cancelled';
  channel: 'email' | 'qr';
  email: string | null;
}

/**
 * What a row offers: a cancelled invitation only re-invite; a live one re-send when the guest's address is known,
 * the QR screen while a QR invitation waits for the guest to enter their address, and cancel.
 */
export function invitationActions(invitation: InvitationState): (Action | 'showQr')[] {
  if (invitation.status === 'cancelled') return ['reinvite'];
  const actions: (Action | 'showQr')[] = [];
  if (invitation.email) actions.push('resend');
  if (invitation.channel === 'qr' && !invitation.email) actions.push('showQr');
  actions.push('cancel');
  return actions;
}
