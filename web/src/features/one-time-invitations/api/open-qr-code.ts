import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/**
 * POST /one-time-invitations/{invitationId}/qr-code (openOneTimeQrCode): a new QR code (SVG drawn by the server),
 * its URL and expiry; the QR code shown before it stops working.
 */
export async function openOneTimeQrCode(invitationId: string) {
  return unwrap(await api.POST('/one-time-invitations/{invitationId}/qr-code', { params: { path: { invitationId } } }))
    .data;
}

export const useOpenQrCode = () => useMutation({ mutationFn: openOneTimeQrCode });
