import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type UserUpdateAttributes = components['schemas']['UserUpdateRequest']['data']['attributes'];

/** PATCH /users/{userId} (updateUser): a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER. */
export async function updateUser({ userId, attributes }: { userId: string; attributes: UserUpdateAttributes }) {
  return unwrap(
    await api.PATCH('/users/{userId}', { params: { path: { userId } }, body: { data: { type: 'User', attributes } } }),
  ).data;
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      queryClient.setQueryData(['users', 'detail', user.id], user);
      return queryClient.invalidateQueries({ queryKey: ['users', 'list'] });
    },
  });
}
