import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

export type PasswordResetRequestAttributes = components['schemas']['PasswordResetRequest']['data']['attributes'];

/** POST /password-reset-requests (requestPasswordReset): always 202; a link is mailed only to a matching account. */
export async function requestPasswordReset(attributes: PasswordResetRequestAttributes): Promise<void> {
  unwrap(
    await anonymousApi.POST('/password-reset-requests', {
      body: { data: { type: 'PasswordResetRequest', attributes } },
      parseAs: 'text',
    }),
  );
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
