import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /me/e-certificate/agents (addMyAgent): a user of the organization may sign with the caller's certificate. */
export async function addMyAgent(userId: string) {
  return unwrap(
    await api.POST('/me/e-certificate/agents', { body: { data: { type: 'Agent', attributes: { userId } } } }),
  ).data;
}

/** DELETE /me/e-certificate/agents/{agentId} (removeMyAgent). */
export async function removeMyAgent(agentId: string) {
  unwrap(await api.DELETE('/me/e-certificate/agents/{agentId}', { params: { path: { agentId } } }));
}

function useAgentsChange<V, R>(change: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['e-certificate', 'agents'] }),
  });
}

export const useAddMyAgent = () => useAgentsChange(addMyAgent);
export const useRemoveMyAgent = () => useAgentsChange(removeMyAgent);
