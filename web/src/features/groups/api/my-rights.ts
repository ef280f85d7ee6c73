import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { useCurrentUser } from '../../../session/current-user.ts';
import { api } from '../../../session/session.ts';

/**
 * The signed-in user and, for one who is not an organization administrator, the groups they administer (GET
 * /users/{userId}, getUser, which group administrators may read): who may use which button.
 */
export function useMyRights() {
  const me = useCurrentUser();
  const isAdmin = me.data?.attributes.isAdmin ?? false;
  const self = useQuery({
    queryKey: ['groups', 'my-groups', me.data?.id],
    queryFn: async () =>
      unwrap(await api.GET('/users/{userId}', { params: { path: { userId: me.data!.id } } })).data.attributes.groups,
    enabled: Boolean(me.data) && !isAdmin,
    retry: false,
  });
  const administered = new Set((self.data ?? []).filter((g) => g.isGroupAdmin).map((g) => g.id));
  return {
    me: me.data,
    isAdmin,
    /** Organization administrators manage every group; a group administrator adds and removes its members. */
    managesMembersOf: (groupId: string) => isAdmin || administered.has(groupId),
  };
}
