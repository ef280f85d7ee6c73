import type { TFunction } from 'i18next';
import type { getWorkspace } from './api/editor-choices.ts';
import type { Choice } from './components/task-editor.tsx';

type Workspace = Awaited<ReturnType<typeof getWorkspace>>;

/**
 * The task editor's assignees from the workspace's participants (own groups, partner organizations), the owner
 * organization, and the ids of the participating groups (all of the owner organization).
 */
export function participantChoices(workspace: Workspace | undefined, t: TFunction) {
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
  const groupIds = new Set(participants.flatMap((p) => (p.kind === 'group' && p.groupId ? [p.groupId] : [])));
  return { ownerOrganizationId: workspace?.attributes.ownerOrganization.id ?? null, assignees, groupIds };
}
