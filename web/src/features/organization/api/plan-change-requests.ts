import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PlanChangeRequest = components['schemas']['PlanChangeRequest'];
export type PlanChangeInput = components['schemas']['PlanChangeRequestCreate']['data']['attributes'];

/** GET /organization/plan-change-requests (listPlanChangeRequests): the newest requests first. */
export async function listPlanChangeRequests() {
  return unwrap(await api.GET('/organization/plan-change-requests', { params: { query: { 'page[size]': 5 } } }));
}

export const planChangeRequestsQueryOptions = () =>
  queryOptions({ queryKey: ['plan-change-requests'], queryFn: listPlanChangeRequests });

export function usePlanChangeRequests(enabled: boolean) {
  return useQuery({ ...planChangeRequestsQueryOptions(), enabled });
}

/** POST /organization/plan-change-requests (requestPlanChange): the owner asks the operator for a change. */
export function useRequestPlanChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (attributes: PlanChangeInput) =>
      unwrap(
        await api.POST('/organization/plan-change-requests', {
          body: { data: { type: 'PlanChangeRequest', attributes } },
        }),
      ),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['plan-change-requests'] }),
  });
}

/** DELETE /organization/plan-change-requests/{requestId} (withdrawPlanChangeRequest). */
export function useWithdrawPlanChange() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (requestId: string) =>
      unwrap(await api.DELETE('/organization/plan-change-requests/{requestId}', { params: { path: { requestId } } })),
    onSettled: () => void client.invalidateQueries({ queryKey: ['plan-change-requests'] }),
  });
}
