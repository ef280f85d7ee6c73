// A route screen made of several features: the document page with the Box upload panel in its slot.
// Features never import each other (STYLE.md); the route is where they meet.
import { DocumentBoxPanel } from '../features/box/components/document-box-panel.tsx';
import { DocumentDetailPage } from '../features/documents/pages/document-detail-page.tsx';

const panels = {
  box: ({ documentId, completed }: { documentId: string; completed: boolean }) => (
    <DocumentBoxPanel documentId={documentId} completed={completed} />
  ),
};

/** /organizations/documents/$documentId: the document, and where it went in the organization's Box. */
export function DocumentDetailRoute() {
  return <DocumentDetailPage panels={panels} />;
}
