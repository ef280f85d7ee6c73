import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /me/e-certificate/agents (listMyAgents): `meta.principals` are the users whose certificate the caller may use. */
export async function listPrincipals() {
  return unwrap(await api.GET('/me/e-certificate/agents')).meta.principals;
}

export const principalsQueryOptions = () =>
  queryOptions({ queryKey: ['e-certificate', 'agents', 'principals'], queryFn: listPrincipals });

export function usePrincipals(enabled: boolean) {
  return useQuery({ ...principalsQueryOptions(), enabled });
}
