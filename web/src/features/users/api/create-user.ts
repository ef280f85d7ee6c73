import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type UserCreateAttributes = components['schemas']['UserCreateRequest']['data']['attributes'];

/** POST /users (createUser): registers the user and mails the invitation with a temporary password. */
export async function createUser(attributes: UserCreateAttributes) {
  return unwrap(await api.POST('/users', { body: { data: { type: 'User', attributes } } })).data;
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });
}
