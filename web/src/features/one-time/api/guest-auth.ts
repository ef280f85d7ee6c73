import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi, oneTimeApi, oneTimeGuard, queryClient } from '../../../session/session.ts';

/** How the guest names their invitation: the mail link's token, or the 16-character code typed instead. */
export type Credential = { token: string } | { accessCode: string };

/** GET /onetime/invitation (getOneTimeInvitation): who invites whom to which flow; dead links are refused. */
export async function getOneTimeInvitation(credential: Credential) {
  return unwrap(await anonymousApi.GET('/onetime/invitation', { params: { query: credential } })).data;
}

export const invitationQueryOptions = (credential: Credential | null) =>
  queryOptions({
    queryKey: ['onetime', 'invitation', credential],
    queryFn: () => getOneTimeInvitation(credential!),
    enabled: credential !== null,
    // A dead link stays dead: asking again only delays its page.
    retry: false,
  });

export function useOneTimeInvitation(credential: Credential | null) {
  return useQuery(invitationQueryOptions(credential));
}

/** POST /onetime/auth/codes (sendOneTimeAuthCode): mails a 6-digit code (10 minutes) replacing any earlier one. */
export async function sendOneTimeAuthCode(credential: Credential) {
  return unwrap(
    await anonymousApi.POST('/onetime/auth/codes', {
      body: { data: { type: 'OneTimeAuthCode', attributes: credential } },
    }),
  ).data.attributes;
}

export function useSendOneTimeAuthCode() {
  return useMutation({ mutationFn: sendOneTimeAuthCode });
}

/** POST /onetime/auth (signInOneTime): the code proves the address; the tokens go to this tab's sessionStorage. */
export async function signInOneTime({ credential, code }: { credential: Credential; code: string }) {
  const attributes = unwrap(
    await anonymousApi.POST('/onetime/auth', {
      body: { data: { type: 'OneTimeAuth', attributes: { ...credential, code } } },
    }),
  ).data.attributes;
  queryClient.removeQueries({ queryKey: ['onetime'] });
  oneTimeGuard.signedIn(attributes);
  return attributes;
}

export function useSignInOneTime() {
  return useMutation({ mutationFn: signInOneTime });
}

/** DELETE /onetime/auth (signOutOneTime): ends the guest session on the server (the tab's tokens are kept). */
export async function signOutOneTime() {
  unwrap(await oneTimeApi.DELETE('/onetime/auth'));
}

/**
 * The tab forgets the guest: tokens, timestamp and the guest's cached answers. Called once the guest screens are
 * gone, so no mounted query asks again without a token (which would end the session a second time).
 */
export function forgetOneTimeSession() {
  oneTimeGuard.clear();
  queryClient.removeQueries({ queryKey: ['onetime'] });
}
