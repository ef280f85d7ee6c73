import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** DELETE /roles/{roleId} (deleteRole): refused with 409 ROLE_IN_USE while users hold it. */
export async function deleteRole(roleId: string) {
  unwrap(await api.DELETE('/roles/{roleId}', { params: { path: { roleId } } }));
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['roles'] }),
  });
}
