import { useMutation } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

export type SignUpAttributes = components['schemas']['SignUpRequest']['data']['attributes'];

/** POST /signup (signUp): creates the organization (free plan) and its owner; the owner then signs in. */
export async function signUp(attributes: SignUpAttributes) {
  return unwrap(await anonymousApi.POST('/signup', { body: { data: { type: 'SignUp', attributes } } })).data;
}

export function useSignUp() {
  return useMutation({ mutationFn: signUp });
}
