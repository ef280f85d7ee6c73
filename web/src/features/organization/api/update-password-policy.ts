import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PasswordPolicyUpdate = components['schemas']['PasswordPolicyUpdate']['data']['attributes'];

/** PATCH /organization/password-policy (updatePasswordPolicy): stricter than the baseline only. */
export async function updatePasswordPolicy(attributes: PasswordPolicyUpdate) {
  return unwrap(
    await api.PATCH('/organization/password-policy', { body: { data: { type: 'PasswordPolicy', attributes } } }),
  ).data;
}

export function useUpdatePasswordPolicy() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: updatePasswordPolicy,
    onSuccess: (policy) => client.setQueryData(['password-policy'], policy),
  });
}
