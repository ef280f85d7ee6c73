import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { useMemberChange } from './add-group-member.ts';

/** PATCH /groups/{groupId}/members/{userId} (updateGroupMember): grant or remove the group administrator right. */
export async function updateGroupMember(input: { groupId: string; userId: string; isGroupAdmin: boolean }) {
  return unwrap(
    await api.PATCH('/groups/{groupId}/members/{userId}', {
      params: { path: { groupId: input.groupId, userId: input.userId } },
      body: { data: { type: 'GroupMember', attributes: { isGroupAdmin: input.isGroupAdmin } } },
    }),
  ).data;
}

export function useUpdateGroupMember() {
  return useMemberChange(updateGroupMember);
}
