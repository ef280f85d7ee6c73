// A route screen made of several features: the business flow page with the one-time invitations panel in its slot.
// Features never import each other (STYLE.md); the route is where they meet.
import { BusinessFlowDetailPage } from '../features/business-flows/pages/business-flow-detail-page.tsx';
import { FlowInvitationsPanel } from '../features/one-time-invitations/components/flow-invitations-panel.tsx';

const panels = {
  guests: ({ businessFlowId, canInvite }: { businessFlowId: string; canInvite: boolean }) => (
    <FlowInvitationsPanel businessFlowId={businessFlowId} canInvite={canInvite} />
  ),
};

/** /business-flows/$businessFlowId: the flow, its documents, its one-time user invitations. */
export function BusinessFlowDetailRoute() {
  return <BusinessFlowDetailPage panels={panels} />;
}
