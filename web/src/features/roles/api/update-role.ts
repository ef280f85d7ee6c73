import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type RoleUpdateAttributes = components['schemas']['RoleUpdateRequest']['data']['attributes'];

/** PATCH /roles/{roleId} (updateRole): a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER. */
export async function updateRole({ roleId, attributes }: { roleId: string; attributes: RoleUpdateAttributes }) {
  return unwrap(
    await api.PATCH('/roles/{roleId}', { params: { path: { roleId } }, body: { data: { type: 'Role', attributes } } }),
  ).data;
}

export function useUpdateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['roles'] }),
  });
}
