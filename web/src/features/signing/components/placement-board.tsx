import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  defaultBox,
  type PageMapping,
  type Placement,
  type PlacementKind,
  toPdfRect,
  toScreenBox,
} from '../placement.ts';
import { HandwritingDialog } from './handwriting-dialog.tsx';
import { usePageRender, useWidth } from './pdf-document.ts';
import { PlacementBox } from './placement-box.tsx';
import { PlacementContent } from './placement-content.tsx';
import { PlacementTools } from './placement-tools.tsx';

let placementCounter = 0;
const newKey = () => `placement-${(placementCounter += 1)}`;

/** A new box, nudged down and right past the boxes already on the page so it never hides one exactly. */
function newRect(kind: PlacementKind, mapping: PageMapping, onPage: number, aspect?: number) {
  const box = defaultBox(kind, mapping, aspect);
  const shift = (onPage % 5) * 12;
  return toPdfRect({ ...box, left: box.left + shift, top: box.top + shift }, mapping);
}

function PlacedList(props: {
  placements: Placement[];
  onShow: (page: number) => void;
  onRemove: (key: string) => void;
}) {
  const { t } = useTranslation('signing');
  const label = (p: Placement) => t('placements.boxLabel', { kind: t(`placements.kinds.${p.kind}`), page: p.page });
  return (
    <section aria-labelledby="placed-title" className="placed-list">
      <h3 id="placed-title">{t('placements.listTitle')}</h3>
      {props.placements.length === 0 ? (
        <p className="muted">{t('placements.empty')}</p>
      ) : (
        <ul className="plain-list">
          {props.placements.map((p) => (
            <li key={p.key}>
              <button type="button" className="button small" onClick={() => props.onShow(p.page)}>
                {label(p)}
              </button>
              <button
                type="button"
                className="button small danger"
                aria-label={t('placements.removeLabel', { label: label(p) })}
                onClick={() => props.onRemove(p.key)}
              >
                {t('placements.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/**
 * The document's pages, one at a time at the frame's width, with the placements of that page as boxes to drag,
 * and the tools that add them. Placements are kept in PDF points, so they stay put when the width changes.
 */
export function PlacementBoard(props: {
  pdf: PDFDocumentProxy;
  title: string;
  placements: Placement[];
  onChange: (placements: Placement[]) => void;
}) {
  const { t } = useTranslation('signing');
  const [pageNumber, setPageNumber] = useState(1);
  const [drawing, setDrawing] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const width = useWidth(frame);
  const { mapping, rendered } = usePageRender(props.pdf, pageNumber, width, canvas);
  const hintId = useId();
  const pages = props.pdf.numPages;
  const onPage = props.placements.filter((p) => p.page === pageNumber);

  const add = (kind: PlacementKind, content: Partial<Placement>, aspect?: number) => {
    if (!mapping) return;
    const rect = newRect(kind, mapping, onPage.length, aspect);
    props.onChange([...props.placements, { key: newKey(), kind, page: pageNumber, rect, ...content }]);
  };
  const update = (key: string, patch: Partial<Placement>) =>
    props.onChange(props.placements.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  const remove = (key: string) => props.onChange(props.placements.filter((p) => p.key !== key));

  return (
    <div className="placement-board">
      <div className="placement-page">
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
        </div>
        <p id={hintId} className="hint">
          {t('placements.keyboardHint')}
        </p>
        <div ref={frame} className="sign-frame" role="region" aria-label={t('viewer.frame', { title: props.title })}>
          <div className="sign-sheet" style={mapping ? { width: mapping.width, height: mapping.height } : undefined}>
            <canvas
              ref={canvas}
              role="img"
              aria-label={t('viewer.pageImage', { title: props.title, page: pageNumber, pages })}
              data-rendered-page={rendered || undefined}
            />
            {mapping &&
              onPage.map((placement) => {
                const label = t('placements.boxLabel', {
                  kind: t(`placements.kinds.${placement.kind}`),
                  page: placement.page,
                });
                return (
                  <PlacementBox
                    key={placement.key}
                    placement={placement}
                    mapping={mapping}
                    label={label}
                    hintId={hintId}
                    onChange={(rect) => update(placement.key, { rect })}
                    onRemove={() => remove(placement.key)}
                  >
                    <PlacementContent placement={placement} height={toScreenBox(placement.rect, mapping).height} />
                  </PlacementBox>
                );
              })}
          </div>
        </div>
      </div>
      <div className="placement-side">
        <PlacementTools
          count={props.placements.length}
          ready={Boolean(mapping)}
          onAddSeal={(sealImageId, aspect) => add('seal', { sealImageId }, aspect)}
          onOpenHandwriting={() => setDrawing(true)}
          onAddText={(lines) => add('text', { lines })}
        />
        <PlacedList placements={props.placements} onShow={setPageNumber} onRemove={remove} />
      </div>
      <HandwritingDialog
        open={drawing}
        onClose={() => setDrawing(false)}
        onPlace={(image) => {
          add('handwritten', { image });
          setDrawing(false);
        }}
      />
    </div>
  );
}
