import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /groups/{groupId}/members (addGroupMember): only organization administrators add a group administrator. */
export async function addGroupMember(input: { groupId: string; userId: string; isGroupAdmin: boolean }) {
  return unwrap(
    await api.POST('/groups/{groupId}/members', {
      params: { path: { groupId: input.groupId } },
      body: { data: { type: 'GroupMember', attributes: { userId: input.userId, isGroupAdmin: input.isGroupAdmin } } },
    }),
  ).data;
}

/** Members, counts and the users' own group lists all change. */
export function useMemberChange<I extends { groupId: string }, R>(mutationFn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['groups', 'members', input.groupId] }),
        queryClient.invalidateQueries({ queryKey: ['groups', 'detail', input.groupId] }),
        queryClient.invalidateQueries({ queryKey: ['groups', 'list'] }),
        queryClient.invalidateQueries({ queryKey: ['users'] }),
      ]),
  });
}

export function useAddGroupMember() {
  return useMemberChange(addGroupMember);
}
