import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BusinessFlowDetail = components['schemas']['BusinessFlowResponse']['data'];

/** GET /business-flows/{businessFlowId} (getBusinessFlow): attributes, properties, documents and rights. */
export async function getBusinessFlow(businessFlowId: string) {
  return unwrap(await api.GET('/business-flows/{businessFlowId}', { params: { path: { businessFlowId } } })).data;
}

export const businessFlowQueryOptions = (businessFlowId: string) =>
  queryOptions({
    queryKey: ['business-flows', 'detail', businessFlowId],
    queryFn: () => getBusinessFlow(businessFlowId),
  });

export function useBusinessFlow(businessFlowId: string) {
  return useQuery(businessFlowQueryOptions(businessFlowId));
}
