import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type GroupCreateAttributes = components['schemas']['GroupCreateRequest']['data']['attributes'];

/** POST /groups (createGroup): the plan limits how many (422 GROUP_LIMIT). */
export async function createGroup(attributes: GroupCreateAttributes) {
  return unwrap(await api.POST('/groups', { body: { data: { type: 'Group', attributes } } })).data;
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createGroup,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['groups'] }),
  });
}
