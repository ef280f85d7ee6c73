import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OneTimeInvitation = components['schemas']['OneTimeInvitation'];

/** GET /business-flows/{businessFlowId}/one-time-invitations (listOneTimeInvitations): the flow's invitations. */
export async function listOneTimeInvitations(businessFlowId: string) {
  return unwrap(
    await api.GET('/business-flows/{businessFlowId}/one-time-invitations', { params: { path: { businessFlowId } } }),
  ).data;
}

export const invitationsQueryOptions = (businessFlowId: string) =>
  queryOptions({
    queryKey: ['one-time-invitations', 'flow', businessFlowId],
    queryFn: () => listOneTimeInvitations(businessFlowId),
  });

export function useOneTimeInvitations(businessFlowId: string) {
  return useQuery(invitationsQueryOptions(businessFlowId));
}
