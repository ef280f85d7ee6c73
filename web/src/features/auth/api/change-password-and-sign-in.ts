import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi, COOKIE_DELIVERY, sessionGuard } from '../../../session/session.ts';

export type PasswordChangeAttributes = components['schemas']['PasswordChangeSignInRequest']['data']['attributes'];

/** PUT /auth/password (changePasswordAndSignIn): changes a temporary or expired password and signs in. */
export async function changePasswordAndSignIn(attributes: PasswordChangeAttributes) {
  const body = unwrap(
    await anonymousApi.PUT('/auth/password', {
      body: { data: { type: 'PasswordChange', attributes: { ...attributes, ...COOKIE_DELIVERY } } },
    }),
  );
  return body.data.attributes;
}

export function useChangePasswordAndSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePasswordAndSignIn,
    onSuccess: (pair) => {
      queryClient.clear();
      sessionGuard.signedIn(pair);
    },
  });
}
