import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /usage (getUsage) for the current month only (the last of the default range), administrators. */
export async function currentUsage() {
  const report = unwrap(await api.GET('/usage'));
  return report.data.at(-1)?.attributes ?? null;
}

export const currentUsageQueryOptions = () => queryOptions({ queryKey: ['usage', 'current'], queryFn: currentUsage });

export function useCurrentUsage(enabled: boolean) {
  return useQuery({ ...currentUsageQueryOptions(), enabled });
}
