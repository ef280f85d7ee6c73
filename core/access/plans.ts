import type { Plan } from '../http/context.ts';
import { AppError } from '../http/errors.ts';
import { DEFAULT_PLANS_FILE, loadPlanCatalog, type PlanCatalog } from './plan-catalog.ts';

/** Features a plan or paid option can switch on; routes and plugins declare the one they need. */
export type PlanFeature =
  | 'ipRestriction'
  | 'customProperties'
  | 'templates'
  | 'box'
  | 'sso'
  | 'advancedSignature'
  | 'longTermSignature'
  | 'apiKeys'
  | 'webhooks'
  | PaidOption;

/** Paid options an organization adds to any plan; each switches on the feature of the same name. */
export type PaidOption = 'aiOcr';
export const PAID_OPTIONS: readonly PaidOption[] = ['aiOcr'];

/** Every feature name, in the order the web lists them (GET /me tells which the organization has). */
export const PLAN_FEATURE_NAMES: readonly PlanFeature[] = [
  'ipRestriction',
  'customProperties',
  'templates',
  'box',
  'sso',
  'advancedSignature',
  'longTermSignature',
  'apiKeys',
  'webhooks',
  ...PAID_OPTIONS,
];

/**
 * The plans and options as data (config/plans.json, or the operator's KEIYAKU_PLANS_FILE): read once at start and
 * checked against the feature and option names above.
 */
export const PLAN_CATALOG: PlanCatalog = loadPlanCatalog(process.env.KEIYAKU_PLANS_FILE || DEFAULT_PLANS_FILE, {
  features: PLAN_FEATURE_NAMES.filter((f) => !(PAID_OPTIONS as readonly string[]).includes(f)),
  options: PAID_OPTIONS,
});

export const PLANS: Plan[] = ['free', 'standard', 'professional'];

/** What each plan includes (its `features` in the catalog). */
export const PLAN_FEATURES: Record<Plan, ReadonlySet<PlanFeature>> = Object.fromEntries(
  PLANS.map((plan) => [plan, new Set(PLAN_CATALOG.plans[plan].features as PlanFeature[])]),
) as unknown as Record<Plan, ReadonlySet<PlanFeature>>;

/** Counts each plan allows (the spec: "the plan limits the number of groups"): the catalog's `limits`. */
export const PLAN_LIMITS: Record<Plan, { groups: number; roles: number }> = Object.fromEntries(
  PLANS.map((plan) => [plan, PLAN_CATALOG.plans[plan].limits]),
) as Record<Plan, { groups: number; roles: number }>;

/** Whether a plan, with the organization's paid options, includes a feature. */
export function planHasFeature(plan: Plan, feature: PlanFeature, options: readonly PaidOption[] = []): boolean {
  return PLAN_FEATURES[plan].has(feature) || (options as readonly string[]).includes(feature);
}

/** The lowest plan that includes a feature (a paid option's feature: null, any plan with the option). */
export function planRequiredFor(feature: PlanFeature): Plan | null {
  return PLANS.find((plan) => PLAN_FEATURES[plan].has(feature)) ?? null;
}

/**
 * 403 PLAN_FEATURE_UNAVAILABLE with params { feature, plan (the lowest plan that has it), currentPlan } unless the
 * organization's plan or paid options include the feature. Routes declare `feature` (core/contract/router.ts);
 * rules inside a request (a signature type of a task) call this.
 */
export function assertPlanFeature(
  organization: { plan: Plan; options?: readonly PaidOption[] },
  feature: PlanFeature,
  pointer?: string,
): void {
  if (planHasFeature(organization.plan, feature, organization.options ?? [])) return;
  const params = { feature, plan: planRequiredFor(feature) ?? feature, currentPlan: organization.plan };
  throw new AppError('PLAN_FEATURE_UNAVAILABLE', { params, pointer });
}

/** Signature types only some plans include (the spec: advanced and long-term signatures are professional). */
export const SIGNATURE_TYPE_FEATURES: Readonly<Record<string, PlanFeature>> = {
  advanced: 'advancedSignature',
  'long-term': 'longTermSignature',
};

/** The plan feature a signature type needs, or null when every plan has it. */
export function signatureTypeFeature(code: string | null | undefined): PlanFeature | null {
  return (code && SIGNATURE_TYPE_FEATURES[code]) || null;
}
