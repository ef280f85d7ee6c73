import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { oneTimeApi, queryClient } from '../../../session/session.ts';

/** GET /onetime/me (getOneTimeMe): the guest, their flow, and whether they accepted the terms in force. */
export async function getOneTimeMe() {
  return unwrap(await oneTimeApi.GET('/onetime/me')).data;
}

export const oneTimeMeQueryOptions = () => queryOptions({ queryKey: ['onetime', 'me'], queryFn: getOneTimeMe });

export function useOneTimeMe() {
  return useQuery(oneTimeMeQueryOptions());
}

/** POST /onetime/terms-consents (acceptOneTimeTerms): records the consent (with the guest's IP and browser). */
export async function acceptOneTimeTerms(termId: string) {
  unwrap(
    await oneTimeApi.POST('/onetime/terms-consents', {
      body: { data: { type: 'OneTimeTermsConsent', attributes: { termId } } },
    }),
  );
  await queryClient.invalidateQueries({ queryKey: ['onetime', 'me'] });
}

export function useAcceptOneTimeTerms() {
  return useMutation({ mutationFn: acceptOneTimeTerms });
}
