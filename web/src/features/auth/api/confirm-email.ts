import { queryOptions } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi } from '../../../session/session.ts';

/** POST /email-confirmations/confirm (confirmEmail): records that the mailed link arrived; public, 204. */
export async function confirmEmail(token: string): Promise<true> {
  unwrap(
    await anonymousApi.POST('/email-confirmations/confirm', {
      body: { data: { type: 'EmailConfirmation', attributes: { token } } },
      parseAs: 'text',
    }),
  );
  return true;
}

/**
 * Sent once when the page opens (a token works only once, so it is never retried or fetched again while the page is
 * open; the query also keeps React's development double mount from sending it twice).
 */
export const confirmEmailQueryOptions = (token: string) =>
  queryOptions({
    queryKey: ['email-confirmation', token],
    queryFn: () => confirmEmail(token),
    retry: false,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
