import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

export type PasswordResetAttributes = components['schemas']['PasswordResetConfirmation']['data']['attributes'];

/** POST /password-resets (resetPassword): sets the new password; 401 PASSWORD_RESET_LINK_INVALID for a bad link. */
export async function resetPassword(attributes: PasswordResetAttributes): Promise<void> {
  unwrap(
    await anonymousApi.POST('/password-resets', {
      body: { data: { type: 'PasswordReset', attributes } },
      parseAs: 'text',
    }),
  );
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
