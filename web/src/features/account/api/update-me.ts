import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { currentUserQueryOptions } from '../../../session/current-user.ts';
import { api } from '../../../session/session.ts';

export type MePatch = components['schemas']['MeUpdateRequest']['data']['attributes'];

/** PATCH /me (updateMe): the caller's own name, language and mobile number; answers the changed user. */
export async function updateMe(attributes: MePatch) {
  return unwrap(await api.PATCH('/me', { body: { data: { type: 'User', attributes } } })).data;
}

/** Puts the answer in the shared ['me'] query, so the header, home and this screen show the change at once. */
export function useUpdateMe() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMe,
    onSuccess: (user) => queryClient.setQueryData(currentUserQueryOptions().queryKey, user),
  });
}
