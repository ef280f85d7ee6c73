import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /me (getCurrentUser), under the app's shared ['me'] key: administrators on a paid plan change properties. */
export async function getMe() {
  return unwrap(await api.GET('/me')).data;
}

export const meQueryOptions = () => queryOptions({ queryKey: ['me'], queryFn: getMe });

/** Whether the signed-in user may change definitions, and why not. */
export function usePropertyRights() {
  const me = useQuery(meQueryOptions());
  const isAdmin = me.data?.attributes.isAdmin ?? false;
  const plan = me.data?.attributes.organization.plan;
  return { isAdmin, freePlan: plan === 'free', canEdit: isAdmin && plan !== undefined && plan !== 'free' };
}
