import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** Users a search shows at once, enough to pick an agent from. */
const RESULTS = 20;

/**
 * GET /users (listUsers) with `filter[q]`: active users of the organization matching the user ID, name or e-mail.
 * Only administrators and group administrators may list users; anyone else is refused (403 FORBIDDEN).
 */
export async function searchUsers(q: string) {
  const query = {
    'filter[q]': q,
    'filter[status]': 'active' as const,
    'page[size]': RESULTS,
    sort: 'loginId' as const,
  };
  return unwrap(await api.GET('/users', { params: { query } })).data;
}

export function useUserSearch(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'agent-search', q],
    queryFn: () => searchUsers(q),
    enabled: enabled && q.trim() !== '',
    placeholderData: keepPreviousData,
    retry: (count, error) => !(error instanceof ApiError && error.status === 403) && count < 3,
  });
}
