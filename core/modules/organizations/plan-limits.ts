import { PLAN_LIMITS } from '../../access/plans.ts';
import type { Plan } from '../../http/context.ts';

/** The most groups a plan allows (PLAN_LIMITS in core/access/plans.ts, owned by the users/groups area). */
export function maxGroupsOf(plan: Plan): number | null {
  return PLAN_LIMITS[plan]?.groups ?? null;
}
