import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** DELETE /users/{userId} (deleteUser): not yourself, not the owner. */
export async function deleteUser(userId: string) {
  unwrap(await api.DELETE('/users/{userId}', { params: { path: { userId } } }));
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteUser,
    onSuccess: (_, userId) => {
      queryClient.removeQueries({ queryKey: ['users', 'detail', userId] });
      return queryClient.invalidateQueries({ queryKey: ['users', 'list'] });
    },
  });
}
