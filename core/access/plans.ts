import type { Plan } from '../http/context.ts';

/** Features a plan or paid option can switch on; routes and plugins declare the one they need. */
export type PlanFeature =
  | 'ipRestriction'
  | 'customProperties'
  | 'templates'
  | 'box'
  | 'sso'
  | 'advancedSignature'
  | 'longTermSignature'
  | PaidOption;

/** Paid options an organization adds to any plan; each switches on the feature of the same name. */
export type PaidOption = 'aiOcr';
export const PAID_OPTIONS: readonly PaidOption[] = ['aiOcr'];

const STANDARD: PlanFeature[] = ['ipRestriction', 'customProperties', 'templates', 'box'];

/** What each plan includes. Free has the core contract workflow only. */
export const PLAN_FEATURES: Record<Plan, ReadonlySet<PlanFeature>> = {
  free: new Set<PlanFeature>(),
  standard: new Set<PlanFeature>(STANDARD),
  professional: new Set<PlanFeature>([...STANDARD, 'sso', 'advancedSignature', 'longTermSignature']),
};

export const PLANS = Object.keys(PLAN_FEATURES) as Plan[];

/**
 * Counts each plan allows (the spec: "the plan limits the number of groups"; values not shown, so chosen here):
 * groups 3 / 100 / 1000; roles 50 per organization on every plan.
 */
export const PLAN_LIMITS: Record<Plan, { groups: number; roles: number }> = {
  free: { groups: 3, roles: 50 },
  standard: { groups: 100, roles: 50 },
  professional: { groups: 1000, roles: 50 },
};

/** Whether a plan, with the organization's paid options, includes a feature. */
export function planHasFeature(plan: Plan, feature: PlanFeature, options: readonly PaidOption[] = []): boolean {
  return PLAN_FEATURES[plan].has(feature) || (options as readonly string[]).includes(feature);
}
