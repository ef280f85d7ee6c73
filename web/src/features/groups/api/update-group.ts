import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type GroupUpdateAttributes = components['schemas']['GroupUpdateRequest']['data']['attributes'];

/** PATCH /groups/{groupId} (updateGroup): rename; a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER. */
export async function updateGroup({ groupId, attributes }: { groupId: string; attributes: GroupUpdateAttributes }) {
  return unwrap(
    await api.PATCH('/groups/{groupId}', {
      params: { path: { groupId } },
      body: { data: { type: 'Group', attributes } },
    }),
  ).data;
}

export function useUpdateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGroup,
    onSuccess: (group) => {
      queryClient.setQueryData(['groups', 'detail', group.id], group);
      return queryClient.invalidateQueries({ queryKey: ['groups', 'list'] });
    },
  });
}
