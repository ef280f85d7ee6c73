import type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import { useEffect, useState } from 'react';
import type { PageMapping } from '../placement.ts';

/** pdf.js and its worker, loaded when the signing screen first shows a page: never part of the sign-in bundle. */
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

/** The width of an element, kept current as the layout changes (the page always fits the frame's width). */
export function useWidth(ref: React.RefObject<HTMLElement | null>): number {
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

/** The mapping between the page as drawn (CSS pixels) and PDF points, from pdf.js's viewport at that scale. */
function mappingOf(page: PDFPageProxy, scale: number): PageMapping {
  const viewport = page.getViewport({ scale });
  return {
    width: viewport.width,
    height: viewport.height,
    toPdf: (x, y) => viewport.convertToPdfPoint(x, y) as [number, number],
    toScreen: (x, y) => viewport.convertToViewportPoint(x, y) as [number, number],
  };
}

/**
 * Draws one page at the frame's width on the canvas (sharp on high-density screens) and returns its mapping and the
 * number of the page last drawn completely. The previous render is cancelled when the page or width changes.
 */
export function usePageRender(
  pdf: PDFDocumentProxy,
  pageNumber: number,
  frameWidth: number,
  canvas: React.RefObject<HTMLCanvasElement | null>,
): { mapping: PageMapping | null; rendered: number } {
  const [mapping, setMapping] = useState<PageMapping | null>(null);
  const [rendered, setRendered] = useState(0);
  useEffect(() => {
    let task: RenderTask | null = null;
    let cancelled = false;
    void (async () => {
      const page = await pdf.getPage(pageNumber);
      const element = canvas.current;
      if (cancelled || !element || frameWidth === 0) return;
      const natural = page.getViewport({ scale: 1 });
      const scale = Math.max(0.1, (frameWidth - 2) / natural.width);
      const ratio = window.devicePixelRatio || 1;
      const viewport = page.getViewport({ scale: scale * ratio });
      element.width = Math.floor(viewport.width);
      element.height = Math.floor(viewport.height);
      const css = mappingOf(page, scale);
      element.style.width = `${css.width}px`;
      element.style.height = `${css.height}px`;
      setMapping(css);
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
  }, [pdf, pageNumber, frameWidth, canvas]);
  return { mapping, rendered };
}
