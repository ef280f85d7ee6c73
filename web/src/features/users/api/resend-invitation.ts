import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /users/{userId}/invitation (resendUserInvitation): a new temporary password, mailed shortly. */
export async function resendInvitation(userId: string) {
  unwrap(await api.POST('/users/{userId}/invitation', { params: { path: { userId } } }));
}

export function useResendInvitation() {
  return useMutation({ mutationFn: resendInvitation });
}
