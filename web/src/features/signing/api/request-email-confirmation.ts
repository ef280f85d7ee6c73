import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /me/email-confirmation (requestEmailConfirmation): mails the link that confirms the address arrives. */
export async function requestEmailConfirmation() {
  unwrap(await api.POST('/me/email-confirmation'));
}

export function useRequestEmailConfirmation() {
  return useMutation({ mutationFn: requestEmailConfirmation });
}
