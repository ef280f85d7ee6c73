import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { OpenedPdf, PageImage, PageSteps } from '../../../components/pdf-controls.tsx';
import { usePageCanvas } from '../../../components/pdf-document.ts';

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

function PdfPages({ pdf, title }: { pdf: PDFDocumentProxy; title: string }) {
  const { t } = useTranslation('documents');
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState<number | null>(null);
  const { frame, canvas, rendered } = usePageCanvas(pdf, pageNumber, zoom);
  const pages = pdf.numPages;
  const zoomIndex = zoom === null ? -1 : ZOOM_STEPS.indexOf(zoom as (typeof ZOOM_STEPS)[number]);
  const step = (delta: number) => {
    const from = zoomIndex === -1 ? ZOOM_STEPS.indexOf(1) : zoomIndex;
    setZoom(ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, from + delta))]!);
  };
  return (
    <div className="pdf-viewer">
      <PageSteps namespace="documents" page={pageNumber} pages={pages} onPage={setPageNumber}>
        <button type="button" className="button small" onClick={() => step(-1)} disabled={zoomIndex === 0}>
          {t('viewer.zoomOut')}
        </button>
        <button
          type="button"
          className="button small"
          onClick={() => step(1)}
          disabled={zoomIndex === ZOOM_STEPS.length - 1}
        >
          {t('viewer.zoomIn')}
        </button>
        <button type="button" className="button small" aria-pressed={zoom === null} onClick={() => setZoom(null)}>
          {t('viewer.fitWidth')}
        </button>
      </PageSteps>
      <div ref={frame} className="pdf-frame" tabIndex={0} role="region" aria-label={t('viewer.frame', { title })}>
        <PageImage
          namespace="documents"
          canvas={canvas}
          title={title}
          page={pageNumber}
          pages={pages}
          rendered={rendered}
        />
      </div>
    </div>
  );
}

/** A PDF preview drawn with pdf.js (one page at a time, page navigation, zoom with fit-width as the default). */
export function PdfViewer({ file, title }: { file: Blob; title: string }) {
  return (
    <OpenedPdf namespace="documents" file={file}>
      {(pdf) => <PdfPages pdf={pdf} title={title} />}
    </OpenedPdf>
  );
}
