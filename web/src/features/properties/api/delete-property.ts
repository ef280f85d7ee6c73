import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** DELETE /properties/{propertyId} (deleteProperty): 409 PROPERTY_IN_USE while values use it. */
export async function deleteProperty(propertyId: string) {
  unwrap(await api.DELETE('/properties/{propertyId}', { params: { path: { propertyId } } }));
}

export function useDeleteProperty() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProperty,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['properties'] }),
  });
}
