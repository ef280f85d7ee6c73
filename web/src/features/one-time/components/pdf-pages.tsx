import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useState } from 'react';
import { OpenedPdf, PageImage, PageSteps } from '../../../components/pdf-controls.tsx';
import { usePageCanvas } from '../../../components/pdf-document.ts';

function Pages({ pdf, title }: { pdf: PDFDocumentProxy; title: string }) {
  const [pageNumber, setPageNumber] = useState(1);
  const { frame, canvas, rendered } = usePageCanvas(pdf, pageNumber, null);
  return (
    <div className="onetime-pdf">
      <PageSteps namespace="signing" page={pageNumber} pages={pdf.numPages} onPage={setPageNumber} />
      <div ref={frame} className="onetime-pdf-frame" role="region" aria-label={title}>
        <PageImage
          namespace="signing"
          canvas={canvas}
          title={title}
          page={pageNumber}
          pages={pdf.numPages}
          rendered={rendered}
        />
      </div>
    </div>
  );
}

/** The document to read before approving or reading: one page at a time at the screen's width. */
export function PdfPages({ file, title }: { file: Blob; title: string }) {
  return (
    <OpenedPdf namespace="signing" file={file}>
      {(pdf) => <Pages pdf={pdf} title={title} />}
    </OpenedPdf>
  );
}
