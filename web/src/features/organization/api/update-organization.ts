import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OrganizationUpdateAttributes = components['schemas']['OrganizationUpdate']['data']['attributes'];

/** PATCH /organization (updateOrganization): administrators only; a stale lockVersion is 409. */
export async function updateOrganization(attributes: OrganizationUpdateAttributes) {
  return unwrap(await api.PATCH('/organization', { body: { data: { type: 'Organization', attributes } } }));
}

export function useUpdateOrganization() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: (document) => {
      client.setQueryData(['organization'], document);
      void client.invalidateQueries({ queryKey: ['me'] });
    },
  });
}
