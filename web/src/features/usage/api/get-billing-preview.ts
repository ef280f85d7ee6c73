import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BillingStatementDetails = components['schemas']['BillingStatementDetails'];

/**
 * GET /billing/preview (getBillingPreview): the current month so far, computed live, and whether the issuer is set
 * up (while it is the embedded example, no month is closed).
 */
export async function getBillingPreview(): Promise<BillingStatementDetails & { issuerConfigured: boolean }> {
  const body = unwrap(await api.GET('/billing/preview'));
  return { ...body.data.attributes, issuerConfigured: body.meta?.issuerConfigured ?? true };
}

export const billingPreviewQueryOptions = () =>
  queryOptions({ queryKey: ['billing', 'preview'], queryFn: getBillingPreview });

export function useBillingPreview() {
  return useQuery(billingPreviewQueryOptions());
}
