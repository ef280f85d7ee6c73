import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';

/** pdf.js and its worker, loaded the first time a PDF page shows: never part of the sign-in bundle. */
async function loadPdfJs() {
  const [pdfjs, worker] = await Promise.all([import('pdfjs-dist'), import('pdfjs-dist/build/pdf.worker.min.mjs?url')]);
  pdfjs.GlobalWorkerOptions.workerSrc = worker.default;
  return pdfjs;
}

export type PdfState = { kind: 'loading' } | { kind: 'ready'; pdf: PDFDocumentProxy } | { kind: 'failed' };

/** Opens the PDF bytes with pdf.js; the document is destroyed when the bytes change or the screen goes away. */
export function usePdfDocument(file: Blob): PdfState {
  const [state, setState] = useState<PdfState>({ kind: 'loading' });
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

/** The width of an element, kept current as the layout changes (fit-width). */
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

/** The page laid out on the canvas and its scale in CSS pixels per PDF point. */
export type DrawnPage = { page: PDFPageProxy; scale: number };

/**
 * Draws one page on the canvas (sharp on high-density screens): at fit-width (`zoom` null) the page fills the frame's
 * width, otherwise at the chosen scale. Returns the page as laid out, known before the drawing ends, and the number
 * of the page last drawn completely. The previous render is cancelled when the page, zoom or width changes.
 */
function usePageRender(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  zoom: number | null,
  frameWidth: number,
  canvas: React.RefObject<HTMLCanvasElement | null>,
): { drawn: DrawnPage | null; rendered: number } {
  const [drawn, setDrawn] = useState<DrawnPage | null>(null);
  const [rendered, setRendered] = useState(0);
  useEffect(() => {
    let task: RenderTask | null = null;
    let cancelled = false;
    void (async () => {
      let page: PDFPageProxy;
      try {
        page = await pdf.getPage(pageNumber);
      } catch {
        // The document was destroyed meanwhile (new bytes after a refetch, or the screen went away): pdf.js rejects
        // with "Transport destroyed", and the effect for the new document draws instead.
        return;
      }
      const element = canvas.current;
      if (cancelled || !element || frameWidth === 0) return;
      const natural = page.getViewport({ scale: 1 });
      const scale = zoom ?? Math.max(0.1, (frameWidth - 2) / natural.width);
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      const css = page.getViewport({ scale });
      element.style.width = `${css.width}px`;
      element.style.height = `${css.height}px`;
      setDrawn({ page, scale });
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
  return { drawn, rendered };
}

/**
 * One page of the PDF on a canvas inside a frame: give `frame` to the element whose width fit-width follows and
 * `canvas` to the canvas. Only the page on screen is rendered.
 */
export function usePageCanvas(pdf: PDFDocumentProxy, pageNumber: number, zoom: number | null) {
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const { drawn, rendered } = usePageRender(pdf, pageNumber, zoom, width, canvas);
  return { frame, canvas, drawn, rendered };
}
