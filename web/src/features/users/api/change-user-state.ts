import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** The state changes of a user, each its own POST with the user's lockVersion. */
export const USER_ACTIONS = ['lock', 'unlock', 'deactivate', 'reactivate', 'unblock-email'] as const;
export type UserAction = (typeof USER_ACTIONS)[number];

/**
 * POST /users/{userId}/{lock|unlock|deactivate|reactivate|unblock-email} (lockUser, unlockUser, deactivateUser,
 * reactivateUser, unblockUserEmail): each answers the changed user.
 */
export async function changeUserState(input: { userId: string; action: UserAction; lockVersion: number }) {
  const options = {
    params: { path: { userId: input.userId } },
    body: { data: { type: 'User' as const, attributes: { lockVersion: input.lockVersion } } },
  };
  switch (input.action) {
    case 'lock':
      return unwrap(await api.POST('/users/{userId}/lock', options)).data;
    case 'unlock':
      return unwrap(await api.POST('/users/{userId}/unlock', options)).data;
    case 'deactivate':
      return unwrap(await api.POST('/users/{userId}/deactivate', options)).data;
    case 'reactivate':
      return unwrap(await api.POST('/users/{userId}/reactivate', options)).data;
    case 'unblock-email':
      return unwrap(await api.POST('/users/{userId}/unblock-email', options)).data;
  }
}

export function useChangeUserState() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserState,
    onSuccess: (user) => {
      queryClient.setQueryData(['users', 'detail', user.id], user);
      return queryClient.invalidateQueries({ queryKey: ['users', 'list'] });
    },
  });
}
