import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

/** POST /password-resets/verification: resolves when the link is usable, 401 PASSWORD_RESET_LINK_INVALID if not. */
export async function verifyPasswordResetToken(token: string): Promise<true> {
  unwrap(
    await anonymousApi.POST('/password-resets/verification', {
      body: { data: { type: 'PasswordResetVerification', attributes: { token } } },
      parseAs: 'text',
    }),
  );
  return true;
}

/** Checked once when the page opens; a refusal is final, so it is not retried. */
export const verifyPasswordResetTokenQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['password-reset-token', token],
    queryFn: () => verifyPasswordResetToken(token),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
