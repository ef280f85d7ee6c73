import { useCurrentUser } from '../../../session/current-user.ts';

/** Whether the signed-in user may change definitions (administrators on a paid plan), and why not. */
export function usePropertyRights() {
  const me = useCurrentUser();
  const isAdmin = me.data?.attributes.isAdmin ?? false;
  const plan = me.data?.attributes.organization.plan;
  return { isAdmin, freePlan: plan === 'free', canEdit: isAdmin && plan !== undefined && plan !== 'free' };
}
