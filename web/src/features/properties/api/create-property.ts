import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PropertyCreateAttributes = components['schemas']['PropertyCreateRequest']['data']['attributes'];

/** POST /properties (createProperty): 422 PROPERTY_NAME_TAKEN, SYSTEM_LINK_ID_TAKEN or PROPERTY_LIMIT. */
export async function createProperty(attributes: PropertyCreateAttributes) {
  return unwrap(await api.POST('/properties', { body: { data: { type: 'Property', attributes } } })).data;
}

export function useCreateProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['properties'] }),
  });
}
