import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** How many matches the member picker offers at a time. */
const MATCHES = 10;

/** GET /users (listUsers) by a search text: the candidates for a new member. */
export async function searchUsers(q: string) {
  const body = unwrap(
    await api.GET('/users', { params: { query: { 'filter[q]': q, sort: 'loginId', 'page[size]': MATCHES } } }),
  );
  return body.data.map((user) => ({
    id: user.id,
    loginId: user.attributes.loginId,
    name: user.attributes.name,
    groupIds: user.attributes.groups.map((group) => group.id),
  }));
}

export const userSearchQueryOptions = (q: string) =>
  queryOptions({ queryKey: ['groups', 'user-search', q], queryFn: () => searchUsers(q) });

export function useUserSearch(q: string) {
  return useQuery({ ...userSearchQueryOptions(q), enabled: q.length > 0 });
}
