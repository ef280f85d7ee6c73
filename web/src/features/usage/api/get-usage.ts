import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type UsageReport = components['schemas']['UsageReport'];
export type UsageCounts = components['schemas']['UsageCounts'];

/** A month range (`YYYY-MM`, Asia/Tokyo); empty means the API's default, the last 12 months. */
export interface UsageRange {
  from: string;
  to: string;
}

/** GET /usage (getUsage): counts per month, zeros included, and totals. */
export async function getUsage(range: UsageRange): Promise<UsageReport> {
  const query = { ...(range.from ? { from: range.from } : {}), ...(range.to ? { to: range.to } : {}) };
  return unwrap(await api.GET('/usage', { params: { query } }));
}

export const usageQueryOptions = (range: UsageRange) =>
  queryOptions({ queryKey: ['usage', range.from, range.to], queryFn: () => getUsage(range) });

export function useUsage(range: UsageRange) {
  return useQuery({ ...usageQueryOptions(range), placeholderData: keepPreviousData });
}
