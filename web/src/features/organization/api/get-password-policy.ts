import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type PasswordPolicy = components['schemas']['PasswordPolicyResponse']['data'];

/** GET /organization/password-policy (getPasswordPolicy): administrators only. */
export async function getPasswordPolicy(): Promise<PasswordPolicy> {
  return unwrap(await api.GET('/organization/password-policy')).data;
}

export const passwordPolicyQueryOptions = () =>
  queryOptions({ queryKey: ['password-policy'], queryFn: getPasswordPolicy });

export function usePasswordPolicy() {
  return useQuery(passwordPolicyQueryOptions());
}
