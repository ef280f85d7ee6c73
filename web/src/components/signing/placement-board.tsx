import type { PDFDocumentProxy, PDFPageProxy } from 'pdfjs-dist';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageImage, PageSteps } from '../pdf-controls.tsx';
import { usePageCanvas } from '../pdf-document.ts';
import {
  defaultBox,
  type PageMapping,
  type Placement,
  type PlacementKind,
  toPdfRect,
  toScreenBox,
} from './placement.ts';
import { HandwritingDialog } from './handwriting-dialog.tsx';
import './signing-parts.css';
import { PlacementBox } from './placement-box.tsx';
import { PlacementContent } from './placement-content.tsx';
import { PlacementTools, type SealTool } from './placement-tools.tsx';

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
  /** The seal part of the tools: the member's registered seal images, or the guest's upload. */
  sealTool: SealTool;
}) {
  const { t } = useTranslation('signing');
  const [pageNumber, setPageNumber] = useState(1);
  const [drawing, setDrawing] = useState(false);
  const { frame, canvas, drawn, rendered } = usePageCanvas(props.pdf, pageNumber, null);
  const mapping = useMemo(() => drawn && mappingOf(drawn.page, drawn.scale), [drawn]);
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
    <div className="split-layout">
      <div className="placement-page">
        <PageSteps namespace="signing" page={pageNumber} pages={pages} onPage={setPageNumber} />
        <p id={hintId} className="hint">
          {t('placements.keyboardHint')}
        </p>
        <div ref={frame} className="sign-frame" role="region" aria-label={t('viewer.frame', { title: props.title })}>
          <div className="sign-sheet" style={mapping ? { width: mapping.width, height: mapping.height } : undefined}>
            <PageImage
              namespace="signing"
              canvas={canvas}
              title={props.title}
              page={pageNumber}
              pages={pages}
              rendered={rendered}
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
          sealTool={props.sealTool}
          onAddSeal={(seal, aspect) => add('seal', seal, aspect)}
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
