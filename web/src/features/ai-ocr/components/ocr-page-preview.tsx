import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useTranslation } from 'react-i18next';
import { useDocumentFile } from '../../../api/download-document.ts';
import { ApiErrorNotice } from '../../../components/api-error-notice.tsx';
import { OpenedPdf, PageImage } from '../../../components/pdf-controls.tsx';
import type { OcrProposal } from '../api/document-ocr.ts';
import { toPixels } from '../geometry.ts';
import { usePageFrame } from './position-board.tsx';

function Page(props: { pdf: PDFDocumentProxy; title: string; proposals: OcrProposal[]; highlighted: string | null }) {
  const { t } = useTranslation('aiOcr');
  const focus = props.proposals.find((p) => p.id === props.highlighted) ?? props.proposals[0];
  const pageNumber = Math.min(focus?.rect.page ?? 1, props.pdf.numPages);
  const { frame, canvas, page, rendered } = usePageFrame(props.pdf, pageNumber);
  return (
    <div ref={frame} className="reading-frame" role="region" aria-label={t('viewer.frame', { title: props.title })}>
      <div
        className="reading-sheet"
        style={page ? { width: page.width * page.scale, height: page.height * page.scale } : undefined}
      >
        <PageImage
          namespace="aiOcr"
          canvas={canvas}
          title={props.title}
          page={pageNumber}
          pages={props.pdf.numPages}
          rendered={rendered}
        />
        {page &&
          props.proposals
            .filter((proposal) => proposal.rect.page === pageNumber)
            .map((proposal) => (
              <div
                key={proposal.id}
                className={proposal.id === focus?.id ? 'reading-box highlighted' : 'reading-box passive'}
                data-proposal={proposal.id}
                aria-hidden="true"
                style={toPixels(proposal.rect, page.scale)}
              >
                {/* Only the highlighted box is named: labels of all would hide the text read above them. */}
                {proposal.id === focus?.id && <span className="reading-box-label">{proposal.propertyName ?? ''}</span>}
              </div>
            ))}
      </div>
    </div>
  );
}

/**
 * The page of the document version that was read, with the places the proposals were read from; the proposal the
 * pointer or focus is on is highlighted (its page is shown).
 */
export function OcrPagePreview(props: {
  documentId: string;
  version: number | null;
  title: string;
  proposals: OcrProposal[];
  highlighted: string | null;
}) {
  const { t } = useTranslation('aiOcr');
  const file = useDocumentFile(props.documentId, props.version ?? undefined);
  if (file.error) return <ApiErrorNotice error={file.error} />;
  if (!file.data) {
    return (
      <p role="status" className="muted">
        {t('viewer.loading')}
      </p>
    );
  }
  return (
    <OpenedPdf namespace="aiOcr" file={file.data.blob}>
      {(pdf) => <Page pdf={pdf} title={props.title} proposals={props.proposals} highlighted={props.highlighted} />}
    </OpenedPdf>
  );
}
