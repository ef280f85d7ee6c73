import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { unwrap } from './errors.ts';
import { anonymousApi } from '../session/session.ts';

/** GET /terms/current (getCurrentTerms) in the UI's language; its id is the acceptTermId of sign-up and sign-in. */
export async function getCurrentTerms(language: string) {
  const result = await anonymousApi.GET('/terms/current', { headers: { 'Accept-Language': language } });
  return unwrap(result).data;
}

export const currentTermsQueryOptions = (language: string) =>
  queryOptions({
    queryKey: ['terms', 'current', language],
    queryFn: () => getCurrentTerms(language),
    // The terms in force change rarely; a screen keeps the version the user read while they agree.
    staleTime: 10 * 60_000,
  });

export function useCurrentTerms(enabled = true) {
  const { i18n } = useTranslation();
  return useQuery({ ...currentTermsQueryOptions(i18n.language), enabled });
}
