import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /me/e-certificate/agents (listMyAgents): the caller's agents, their maximum, and the caller's principals. */
export async function listMyAgents() {
  return unwrap(await api.GET('/me/e-certificate/agents'));
}

export const agentsQueryOptions = () => queryOptions({ queryKey: ['e-certificate', 'agents'], queryFn: listMyAgents });

export function useMyAgents() {
  return useQuery(agentsQueryOptions());
}
