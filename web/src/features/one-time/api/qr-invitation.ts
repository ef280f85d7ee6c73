import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

/** GET /onetime/qr/{qrToken} (getOneTimeQrInvitation): who invites to which flow, and until when the QR works. */
export async function getOneTimeQrInvitation(qrToken: string) {
  return unwrap(await anonymousApi.GET('/onetime/qr/{qrToken}', { params: { path: { qrToken } } })).data;
}

export const qrInvitationQueryOptions = (qrToken: string) =>
  queryOptions({
    queryKey: ['onetime', 'qr', qrToken],
    queryFn: () => getOneTimeQrInvitation(qrToken),
    retry: false,
  });

export function useOneTimeQrInvitation(qrToken: string) {
  return useQuery(qrInvitationQueryOptions(qrToken));
}

/** POST /onetime/qr/{qrToken} (claimOneTimeQrInvitation): name and address; the 6-digit code is mailed at once. */
export async function claimOneTimeQrInvitation(input: {
  qrToken: string;
  name: string;
  email: string;
  locale: 'ja' | 'en';
}) {
  return unwrap(
    await anonymousApi.POST('/onetime/qr/{qrToken}', {
      params: { path: { qrToken: input.qrToken } },
      body: {
        data: { type: 'OneTimeQrClaim', attributes: { name: input.name, email: input.email, locale: input.locale } },
      },
    }),
  ).data.attributes;
}

export function useClaimOneTimeQrInvitation() {
  return useMutation({ mutationFn: claimOneTimeQrInvitation });
}
