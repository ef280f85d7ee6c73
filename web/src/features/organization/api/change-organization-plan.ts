import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PlanChangeAttributes = components['schemas']['OrganizationPlanChange']['data']['attributes'];

/** PUT /organization/plan (changeOrganizationPlan): the owner only; takes effect at once. */
export async function changeOrganizationPlan(attributes: PlanChangeAttributes) {
  return unwrap(await api.PUT('/organization/plan', { body: { data: { type: 'OrganizationPlan', attributes } } }));
}

export function useChangeOrganizationPlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changeOrganizationPlan,
    onSuccess: (document) => {
      client.setQueryData(['organization'], document);
      // The plan decides other screens (IP restriction, the home page's plan).
      void client.invalidateQueries({ queryKey: ['me'] });
      void client.invalidateQueries({ queryKey: ['ip-restrictions'] });
    },
  });
}
