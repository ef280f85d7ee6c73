import { queryOptions, useQuery } from '@tanstack/react-query';
import { rememberPermissionsVersion, unwrap } from '../api/errors.ts';
import { isSessionEndedError } from './guard.ts';
import { api } from './session.ts';

/** GET /me (getCurrentUser): the signed-in user and their organization. */
export async function getCurrentUser() {
  const user = unwrap(await api.GET('/me')).data;
  rememberPermissionsVersion(user.attributes.permissionsVersion);
  return user;
}

/** The one ['me'] query every screen shares (the router prefetches it, the settings layout and screens read it). */
export const currentUserQueryOptions = () => queryOptions({ queryKey: ['me'], queryFn: getCurrentUser });

/** The current user; a failure goes to the route's error page, except an ended session (the guard redirects). */
export function useCurrentUser() {
  return useQuery({ ...currentUserQueryOptions(), throwOnError: (error) => !isSessionEndedError(error) });
}
