import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PropertyUpdateAttributes = components['schemas']['PropertyUpdateRequest']['data']['attributes'];

/**
 * PATCH /properties/{propertyId} (updateProperty): a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER, stale
 * options (optionsVersion) 409 PROPERTY_OPTIONS_CHANGED.
 */
export async function updateProperty({ id, attributes }: { id: string; attributes: PropertyUpdateAttributes }) {
  return unwrap(
    await api.PATCH('/properties/{propertyId}', {
      params: { path: { propertyId: id } },
      body: { data: { type: 'Property', attributes } },
    }),
  ).data;
}

export function useUpdateProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProperty,
    onSuccess: (property) => {
      queryClient.setQueryData(['properties', 'detail', property.id], property);
      return queryClient.invalidateQueries({ queryKey: ['properties', 'list'] });
    },
  });
}
