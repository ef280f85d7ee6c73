// A route screen made of several features: the document page with the Box upload and AI-OCR panels in its slots.
// Features never import each other (STYLE.md); the route is where they meet.
import { DocumentOcrPanel, type DocumentOcrPanelProps } from '../features/ai-ocr/components/document-ocr-panel.tsx';
import { DocumentBoxPanel } from '../features/box/components/document-box-panel.tsx';
import { DocumentDetailPage } from '../features/documents/pages/document-detail-page.tsx';

const panels = {
  box: ({ documentId, completed }: { documentId: string; completed: boolean }) => (
    <DocumentBoxPanel documentId={documentId} completed={completed} />
  ),
  ocr: (document: DocumentOcrPanelProps) => <DocumentOcrPanel {...document} />,
};

/**
 * /organizations/documents/$documentId: the document, where it went in the organization's Box, and the values
 * AI-OCR read from it.
 */
export function DocumentDetailRoute() {
  return <DocumentDetailPage panels={panels} />;
}
