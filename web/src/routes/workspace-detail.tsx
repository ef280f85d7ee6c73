// A route screen made of several features: the workspace page with the workspace's one-time users in its slot.
// Features never import each other (STYLE.md); the route is where they meet.
import { WorkspaceOneTimeUsers } from '../features/one-time-invitations/components/workspace-one-time-users.tsx';
import { WorkspaceDetailPage } from '../features/workspaces/pages/workspace-detail-page.tsx';

const panels = { oneTimeUsers: (workspaceId: string) => <WorkspaceOneTimeUsers workspaceId={workspaceId} /> };

/** /organizations/workspaces/$workspaceId: the workspace, its participants, its one-time users, its flows. */
export function WorkspaceDetailRoute() {
  return <WorkspaceDetailPage panels={panels} />;
}
