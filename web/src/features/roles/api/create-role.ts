import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type RoleCreateAttributes = components['schemas']['RoleCreateRequest']['data']['attributes'];

/** POST /roles (createRole): at most meta.maxRoles per organization (422 ROLE_LIMIT). */
export async function createRole(attributes: RoleCreateAttributes) {
  return unwrap(await api.POST('/roles', { body: { data: { type: 'Role', attributes } } })).data;
}

export function useCreateRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createRole,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['roles'] }),
  });
}
