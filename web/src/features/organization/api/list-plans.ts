import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PlanCatalog = components['schemas']['PlanCatalog'];
export type PlanDefinition = components['schemas']['PlanDefinition'];

/** GET /plans (listPlans): every plan and paid option with features, limits and prices. */
export async function listPlans(): Promise<PlanCatalog> {
  return unwrap(await api.GET('/plans'));
}

export const plansQueryOptions = () =>
  queryOptions({ queryKey: ['plans'], queryFn: listPlans, staleTime: 10 * 60_000 });

export function usePlans() {
  return useQuery(plansQueryOptions());
}
