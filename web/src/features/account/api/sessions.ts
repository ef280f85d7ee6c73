import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type Session = components['schemas']['Session'];

/** GET /me/sessions (listMySessions): the caller's live sessions, the calling one marked `current`. */
export async function listMySessions() {
  return unwrap(await api.GET('/me/sessions')).data;
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: ['me', 'sessions'], queryFn: listMySessions });

export function useMySessions() {
  return useQuery(sessionsQueryOptions());
}

/** DELETE /me/sessions/others (signOutOtherSessions). */
export async function signOutOtherSessions() {
  unwrap(await api.DELETE('/me/sessions/others'));
}

/** DELETE /me/sessions/{sessionId} (signOutSession). */
export async function signOutSession(sessionId: string) {
  unwrap(await api.DELETE('/me/sessions/{sessionId}', { params: { path: { sessionId } } }));
}

function useSessionsChange<V>(change: (variables: V) => Promise<void>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions().queryKey }),
  });
}

export const useSignOutOtherSessions = () => useSessionsChange(signOutOtherSessions);
export const useSignOutSession = () => useSessionsChange(signOutSession);
