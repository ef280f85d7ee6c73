import { PAID_OPTIONS, PLAN_CATALOG, PLANS, type PlanFeature } from '../../access/plans.ts';
import { perIp } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';

/** listPlans: the catalogue the service runs with, public like any price list. */
export function planCatalogRoutes(api: ApiRouter): void {
  api.operation('listPlans', { rateLimit: [perIp('plansPerIp')] }, async () => ({
    body: {
      data: PLANS.map((plan) => {
        const { names, features, limits, monthlyFee, metered } = PLAN_CATALOG.plans[plan];
        return {
          type: 'Plan' as const,
          id: plan,
          attributes: { names, features: features as PlanFeature[], limits, monthlyFee, metered },
        };
      }),
      meta: {
        currency: PLAN_CATALOG.currency,
        consumptionTaxPercent: PLAN_CATALOG.consumptionTaxPercent,
        options: PAID_OPTIONS.map((option) => ({ option, ...PLAN_CATALOG.options[option]! })),
      },
    },
  }));
}
