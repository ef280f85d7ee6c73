import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type CorporateLookup = components['schemas']['CorporateNumberLookup']['data'];

/**
 * GET /organization/corporate-number-lookup (lookupCorporateNumber): found, unavailable or disabled; an unknown
 * number throws ApiError CORPORATE_INFO_NOT_FOUND. Run on demand (a button), so it is a mutation, not a query.
 */
export async function lookupCorporateNumber(number: string): Promise<CorporateLookup> {
  return unwrap(await api.GET('/organization/corporate-number-lookup', { params: { query: { number } } })).data;
}

export function useLookupCorporateNumber() {
  return useMutation({ mutationFn: lookupCorporateNumber, retry: false });
}
