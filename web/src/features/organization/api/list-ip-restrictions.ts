import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiError, unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type IpRestrictionList = components['schemas']['IpRestrictionList'];

/** GET /organization/ip-restrictions (listIpRestrictions): the allow-list, the caller's IP and the maximum. */
export async function listIpRestrictions(): Promise<IpRestrictionList> {
  return unwrap(await api.GET('/organization/ip-restrictions'));
}

export const ipRestrictionsQueryOptions = () =>
  queryOptions({
    queryKey: ['ip-restrictions'],
    queryFn: listIpRestrictions,
    // A plan or permission refusal will not change by retrying.
    retry: (count, error) => !(error instanceof ApiError && error.status === 403) && count < 3,
  });

export function useIpRestrictions() {
  return useQuery(ipRestrictionsQueryOptions());
}
