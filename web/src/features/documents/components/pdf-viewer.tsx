import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** pdf.js and its worker, loaded the first time a preview shows: never part of the sign-in bundle. */
async function loadPdfJs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

const ZOOM_STEPS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

type LoadState = { kind: 'loading' } | { kind: 'ready'; pdf: PDFDocumentProxy } | { kind: 'failed' };

/** Opens the PDF bytes with pdf.js; the document is destroyed when the bytes change or the viewer goes away. */
function usePdfDocument(file: Blob): LoadState {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | null = null;
    setState({ kind: 'loading' });
    void (async () => {
      try {
        const pdfjs = await loadPdfJs();
        const data = new Uint8Array(await file.arrayBuffer());
        opened = await pdfjs.getDocument({ data }).promise;
        if (cancelled) void opened.destroy();
        else setState({ kind: 'ready', pdf: opened });
      } catch {
        if (!cancelled) setState({ kind: 'failed' });
      }
    })();
    return () => {
      cancelled = true;
      void opened?.destroy();
    };
  }, [file]);
  return state;
}

/** The width of an element, kept current as the layout changes (fit-width zoom). */
function useWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/**
 * Draws one page on the canvas: at fit-width (`zoom` null) the page fills the frame's width, otherwise at the
 * chosen scale. Only the page on screen is rendered; the previous render is cancelled when the page changes.
 */
function usePageRender(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  zoom: number | null,
  frameWidth: number,
  canvas: React.RefObject<HTMLCanvasElement | null>,
) {
  const [rendered, setRendered] = useState(0);
  useEffect(() => {
    let task: RenderTask | null = null;
    let cancelled = false;
    void (async () => {
      const page = await pdf.getPage(pageNumber);
      const element = canvas.current;
      if (cancelled || !element || frameWidth === 0) return;
      const natural = page.getViewport({ scale: 1 });
      const scale = zoom ?? Math.max(0.1, (frameWidth - 2) / natural.width);
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      element.style.width = `${Math.floor(viewport.width / ratio)}px`;
      element.style.height = `${Math.floor(viewport.height / ratio)}px`;
      task = page.render({ canvas: element, viewport });
      try {
        await task.promise;
        if (!cancelled) setRendered(pageNumber);
      } catch {
        // A cancelled render rejects; the next effect draws again.
      }
    })();
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, pageNumber, zoom, frameWidth, canvas]);
  return rendered;
}

function PdfPages({ pdf, title }: { pdf: PDFDocumentProxy; title: string }) {
  const { t } = useTranslation('documents');
  const [pageNumber, setPageNumber] = useState(1);
  const [zoom, setZoom] = useState<number | null>(null);
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const rendered = usePageRender(pdf, pageNumber, zoom, width, canvas);
  const pages = pdf.numPages;
  const zoomIndex = zoom === null ? -1 : ZOOM_STEPS.indexOf(zoom as (typeof ZOOM_STEPS)[number]);
  const step = (delta: number) => {
    const from = zoomIndex === -1 ? ZOOM_STEPS.indexOf(1) : zoomIndex;
    setZoom(ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, Math.max(0, from + delta))]!);
  };
  return (
    <div className="pdf-viewer">
      <div className="pdf-toolbar" role="toolbar" aria-label={t('viewer.toolbar')}>
        <button
          type="button"
          className="button small"
          disabled={pageNumber <= 1}
          onClick={() => setPageNumber(pageNumber - 1)}
        >
          {t('viewer.previous')}
        </button>
        <span className="pdf-page-status" aria-live="polite">
          {t('viewer.pageStatus', { page: pageNumber, pages })}
        </span>
        <button
          type="button"
          className="button small"
          disabled={pageNumber >= pages}
          onClick={() => setPageNumber(pageNumber + 1)}
        >
          {t('viewer.next')}
        </button>
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
      </div>
      <div ref={frame} className="pdf-frame" tabIndex={0} role="region" aria-label={t('viewer.frame', { title })}>
        <canvas
          ref={canvas}
          role="img"
          aria-label={t('viewer.pageImage', { title, page: pageNumber, pages })}
          data-rendered-page={rendered || undefined}
        />
      </div>
    </div>
  );
}

/** A PDF preview drawn with pdf.js (one page at a time, page navigation, zoom with fit-width as the default). */
export function PdfViewer({ file, title }: { file: Blob; title: string }) {
  const { t } = useTranslation('documents');
  const state = usePdfDocument(file);
  if (state.kind === 'loading') {
    return (
      <p role="status" className="muted">
        {t('viewer.loading')}
      </p>
    );
  }
  if (state.kind === 'failed') {
    return (
      <p role="alert" className="form-error">
        {t('viewer.failed')}
      </p>
    );
  }
  return <PdfPages pdf={state.pdf} title={title} />;
}
