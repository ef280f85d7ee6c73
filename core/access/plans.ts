import type { Plan } from '../http/context.ts';

/** Features a plan or paid option can switch on; routes and plugins declare the one they need. */
export type PlanFeature =
  'ipRestriction' | 'customProperties' | 'templates' | 'box' | 'sso' | 'advancedSignature' | 'longTermSignature';

const STANDARD: PlanFeature[] = ['ipRestriction', 'customProperties', 'templates', 'box'];

/** What each plan includes. Free has the core contract workflow only. */
export const PLAN_FEATURES: Record<Plan, ReadonlySet<PlanFeature>> = {
  free: new Set<PlanFeature>(),
  standard: new Set<PlanFeature>(STANDARD),
  professional: new Set<PlanFeature>([...STANDARD, 'sso', 'advancedSignature', 'longTermSignature']),
};

export const PLANS = Object.keys(PLAN_FEATURES) as Plan[];

export function planHasFeature(plan: Plan, feature: PlanFeature): boolean {
  return PLAN_FEATURES[plan].has(feature);
}
