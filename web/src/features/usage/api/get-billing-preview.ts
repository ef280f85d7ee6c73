import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BillingStatementDetails = components['schemas']['BillingStatementDetails'];

/** GET /billing/preview (getBillingPreview): the current month so far, computed live. */
export async function getBillingPreview(): Promise<BillingStatementDetails> {
  return unwrap(await api.GET('/billing/preview')).data.attributes;
}

export const billingPreviewQueryOptions = () =>
  queryOptions({ queryKey: ['billing', 'preview'], queryFn: getBillingPreview });

export function useBillingPreview() {
  return useQuery(billingPreviewQueryOptions());
}
