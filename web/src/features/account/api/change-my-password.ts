import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api, queryClient } from '../../../session/session.ts';
import { sessionsQueryOptions } from './sessions.ts';

export interface PasswordChange {
  currentPassword: string;
  password: string;
  passwordConfirmation: string;
}

/** PUT /me/password (changeMyPassword): the other sessions end, this one stays. */
export async function changeMyPassword(attributes: PasswordChange) {
  unwrap(await api.PUT('/me/password', { body: { data: { type: 'PasswordChange', attributes } } }));
}

export function useChangeMyPassword() {
  return useMutation({
    mutationFn: changeMyPassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}
