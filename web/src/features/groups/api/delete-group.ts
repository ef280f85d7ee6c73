import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/**
 * DELETE /groups/{groupId} (deleteGroup): refused while a member has no other group
 * (GROUP_DELETE_LEAVES_USER_WITHOUT_GROUP) or while the group is in a workspace (GROUP_IN_USE).
 */
export async function deleteGroup(groupId: string) {
  unwrap(await api.DELETE('/groups/{groupId}', { params: { path: { groupId } } }));
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    onSuccess: (_, groupId) => {
      queryClient.removeQueries({ queryKey: ['groups', 'detail', groupId] });
      return queryClient.invalidateQueries({ queryKey: ['groups', 'list'] });
    },
  });
}
