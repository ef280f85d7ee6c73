import type { PDFDocumentProxy } from 'pdfjs-dist';
import type { ReactNode, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { usePdfDocument } from './pdf-document.ts';

/**
 * The screens that show a PDF keep their own wording under `viewer` in their namespace (`loading`, `failed`,
 * `toolbar`, `previous`, `next`, `pageStatus`, `pageImage`); these parts read it from there.
 */
type ViewerNamespace = { namespace: string };

/** Opens the PDF bytes and hands the document to `children`; until then, where its loading stands. */
export function OpenedPdf(props: ViewerNamespace & { file: Blob; children: (pdf: PDFDocumentProxy) => ReactNode }) {
  const { t } = useTranslation(props.namespace);
  const state = usePdfDocument(props.file);
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
  return props.children(state.pdf);
}

/** The page toolbar: previous, "page n of m", next, then any further controls given as `children`. */
export function PageSteps(
  props: ViewerNamespace & { page: number; pages: number; onPage: (page: number) => void; children?: ReactNode },
) {
  const { t } = useTranslation(props.namespace);
  const { page, pages } = props;
  return (
    <div className="pdf-toolbar" role="toolbar" aria-label={t('viewer.toolbar')}>
      <button type="button" className="button small" disabled={page <= 1} onClick={() => props.onPage(page - 1)}>
        {t('viewer.previous')}
      </button>
      <span className="pdf-page-status" aria-live="polite">
        {t('viewer.pageStatus', { page, pages })}
      </span>
      <button type="button" className="button small" disabled={page >= pages} onClick={() => props.onPage(page + 1)}>
        {t('viewer.next')}
      </button>
      {props.children}
    </div>
  );
}

/** The canvas a page is drawn on, named for screen readers and marked with the number of the page drawn last. */
export function PageImage(
  props: ViewerNamespace & {
    canvas: RefObject<HTMLCanvasElement | null>;
    title: string;
    page: number;
    pages: number;
    rendered: number;
  },
) {
  const { t } = useTranslation(props.namespace);
  const { title, page, pages } = props;
  return (
    <canvas
      ref={props.canvas}
      role="img"
      aria-label={t('viewer.pageImage', { title, page, pages })}
      data-rendered-page={props.rendered || undefined}
    />
  );
}
