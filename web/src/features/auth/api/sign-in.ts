import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi, COOKIE_DELIVERY, sessionGuard } from '../../../session/session.ts';

export type SignInAttributes = components['schemas']['SignInRequest']['data']['attributes'];

/**
 * POST /auth (signIn): the access token (the refresh token comes as an HttpOnly cookie), or an ApiError (401
 * INVALID_CREDENTIALS, 403 password changes, 422 terms).
 */
export async function signIn(attributes: SignInAttributes) {
  const body = unwrap(
    await anonymousApi.POST('/auth', {
      body: { data: { type: 'Auth', attributes: { ...attributes, ...COOKIE_DELIVERY } } },
    }),
  );
  return body.data.attributes;
}

/** Signs in and hands the pair to the session guard; whatever a previous user left in the cache goes. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signIn,
    onSuccess: (pair) => {
      queryClient.clear();
      sessionGuard.signedIn(pair);
    },
  });
}
