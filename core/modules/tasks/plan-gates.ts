/*
 * Plan gates of a task plan: a sign task whose signature type needs a plan feature (advanced and long-term
 * signatures: professional, core/access/plans.ts) is refused when the workspace owner organization's plan lacks it:
 * 403 PLAN_FEATURE_UNAVAILABLE with params { feature, plan, currentPlan } and the task's signatureType pointer.
 * The owner organization's plan decides (its documents, its contract), whoever edits the plan.
 */
import type { Knex } from 'knex';
import { assertPlanFeature, type PaidOption, signatureTypeFeature } from '../../access/plans.ts';
import type { Plan } from '../../http/context.ts';

export async function assertSignatureTypesInPlan(
  trx: Knex,
  ownerOrganizationId: string,
  signatureTypes: (string | null)[],
  base: string,
): Promise<void> {
  const gated = signatureTypes.flatMap((code, i) => {
    const feature = signatureTypeFeature(code);
    return feature ? [{ feature, i }] : [];
  });
  if (gated.length === 0) return;
  const organization = (await trx('organizations').where({ id: ownerOrganizationId }).first('plan', 'options')) as {
    plan: Plan;
    options: PaidOption[] | null;
  };
  for (const { feature, i } of gated) {
    assertPlanFeature(
      { plan: organization.plan, options: organization.options ?? [] },
      feature,
      `${base}/${i}/signatureType`,
    );
  }
}
