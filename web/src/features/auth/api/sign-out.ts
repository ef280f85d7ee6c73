import { useMutation } from '@tanstack/react-query';
import { api, queryClient, sessionGuard } from '../../../session/session.ts';

/** Ends the session on the server (DELETE /auth), then forgets tokens and cached data whatever it answered. */
export async function signOut(): Promise<void> {
  try {
    await api.DELETE('/auth');
  } finally {
    sessionGuard.clear();
    queryClient.clear();
  }
}

export function useSignOut(onDone: () => void) {
  return useMutation({ mutationFn: signOut, onSettled: onDone });
}
