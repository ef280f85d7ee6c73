// A route screen made of several features: the templates page with the AI-OCR reading-position editor in the
// document template form. Features never import each other (STYLE.md); the route is where they meet.
import { ReadingPositionsSection } from '../features/ai-ocr/components/reading-positions-section.tsx';
import { TemplatesPage, type TemplatesSlots } from '../features/templates/pages/templates-page.tsx';

const slots: TemplatesSlots = {
  readingPositions: (props) => <ReadingPositionsSection {...props} />,
};

/** /organizations/templates: the templates, with where AI-OCR reads each document template's properties. */
export function TemplatesRoute() {
  return <TemplatesPage slots={slots} />;
}
