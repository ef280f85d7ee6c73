import type { UserAction } from './api/change-user-state.ts';
import type { User } from './api/get-user.ts';

export type Action = UserAction | 'resendInvitation' | 'delete';

/** Actions that ask first: they end sessions, or cannot be undone. */
export const CONFIRMED: Action[] = ['lock', 'deactivate', 'delete', 'resendInvitation'];

/** The actions that fit the user's state; none that touch yourself or the owner's account. */
export function availableActions(user: User, isSelf: boolean): Action[] {
  const a = user.attributes;
  const protectedUser = isSelf || a.isOwner;
  const actions: Action[] = [];
  if (a.locked) actions.push('unlock');
  else if (!protectedUser) actions.push('lock');
  if (a.status === 'deactivated') actions.push('reactivate');
  else if (!protectedUser) actions.push('deactivate');
  if (a.emailBlocked) actions.push('unblock-email');
  if (a.status === 'active') actions.push('resendInvitation');
  if (!protectedUser) actions.push('delete');
  return actions;
}
