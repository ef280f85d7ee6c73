import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { useMemberChange } from './add-group-member.ts';

/**
 * DELETE /groups/{groupId}/members/{userId} (removeGroupMember): refused for a group administrator
 * (GROUP_ADMIN_CANNOT_BE_REMOVED) and for a member's only group (USER_LAST_GROUP).
 */
export async function removeGroupMember(input: { groupId: string; userId: string }) {
  unwrap(
    await api.DELETE('/groups/{groupId}/members/{userId}', {
      params: { path: { groupId: input.groupId, userId: input.userId } },
    }),
  );
}

export function useRemoveGroupMember() {
  return useMemberChange(removeGroupMember);
}
