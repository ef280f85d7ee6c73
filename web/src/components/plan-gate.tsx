import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../../core/contract/api.gen.ts';
import { WORKBENCH_AREAS } from './areas.ts';
import { useCurrentUser } from '../session/current-user.ts';

export type PlanFeature = components['schemas']['PlanFeature'];
type Plan = components['schemas']['Plan'];

/** The lowest plan with each feature (core/access/plans.ts PLAN_FEATURES; aiOcr is a paid option of any plan). */
const REQUIRED_PLAN: Record<PlanFeature, Plan> = {
  ipRestriction: 'standard',
  customProperties: 'standard',
  templates: 'standard',
  box: 'standard',
  sso: 'professional',
  advancedSignature: 'professional',
  longTermSignature: 'professional',
  apiKeys: 'standard',
  webhooks: 'standard',
  aiOcr: 'free',
};

/**
 * Whether the signed-in user's organization has a plan feature (GET /me organization.features), and the reason to
 * show when it has not. Until /me answers, features count as available (the API refuses them anyway).
 */
export function usePlanFeature(feature: PlanFeature): { available: boolean; reason: string } {
  const { t } = useTranslation('common');
  const features = useCurrentUser().data?.attributes.organization.features;
  const available = !features || features.includes(feature);
  const reason = t('planGate.requires', { plan: t(`planGate.plans.${REQUIRED_PLAN[feature]}`) });
  return { available, reason };
}

/** Renders the children when the organization's plan has the feature, else a notice saying which plan has it. */
export function PlanGate(props: { feature: PlanFeature; children: ReactNode }) {
  const { available, reason } = usePlanFeature(props.feature);
  if (available) return <>{props.children}</>;
  return (
    <p className="notice plan-gate" role="status" data-feature={props.feature}>
      {reason}
    </p>
  );
}

/**
 * The workbench areas of the main menu and the home screen for the organization's plan: templates (standard plan
 * and above) are left out below it; the screen, opened directly, says which plan has them.
 */
export function useWorkbenchAreas() {
  const templates = usePlanFeature('templates');
  return WORKBENCH_AREAS.filter((area) => area.key !== 'templates' || templates.available);
}
