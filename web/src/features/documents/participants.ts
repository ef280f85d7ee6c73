import type { TFunction } from 'i18next';
import type { getWorkspace, listOneTimeUsers } from './api/editor-choices.ts';
import type { Choice } from './components/task-editor.tsx';

type Workspace = Awaited<ReturnType<typeof getWorkspace>>;
type OneTimeUser = Awaited<ReturnType<typeof listOneTimeUsers>>[number];

/** A one-time user as an assignee: name and address; a QR guest who has not entered them yet cannot take a task. */
function guestChoice(guest: OneTimeUser, t: TFunction): Choice[] {
  const { name, email } = guest.attributes;
  if (!email) return [];
  const label = name
    ? t('documents:editor.guestOption', { name, email })
    : t('documents:editor.guestOptionName', { name: email });
  return [{ value: `one_time_user:${guest.id}`, label }];
}

/**
 * The task editor's assignees from the workspace's participants (own groups, partner organizations) and its
 * one-time users, the owner organization, and the ids of the participating groups (all of the owner organization).
 */
export function participantChoices(workspace: Workspace | undefined, t: TFunction, guests: OneTimeUser[] = []) {
  const participants = (workspace?.attributes.participants ?? []).map((participant) => participant.attributes);
  const assignees: Choice[] = participants.flatMap((p): Choice[] => {
    if (p.kind === 'group' && p.groupId) {
      return [{ value: `group:${p.groupId}`, label: t('documents:editor.groupOption', { name: p.groupName ?? '' }) }];
    }
    if (p.kind === 'organization' && p.organizationId) {
      const label = t('documents:editor.partnerOption', { name: p.organizationName ?? '' });
      return [{ value: `organization:${p.organizationId}`, label }];
    }
    return [];
  });
  assignees.push(...guests.flatMap((guest) => guestChoice(guest, t)));
  const groupIds = new Set(participants.flatMap((p) => (p.kind === 'group' && p.groupId ? [p.groupId] : [])));
  return { ownerOrganizationId: workspace?.attributes.ownerOrganization.id ?? null, assignees, groupIds };
}
