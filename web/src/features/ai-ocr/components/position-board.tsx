import type { PDFDocumentProxy } from 'pdfjs-dist';
import { type PointerEvent, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageImage, PageSteps } from '../../../components/pdf-controls.tsx';
import { usePageCanvas } from '../../../components/pdf-document.ts';
import type { ReadingPosition } from '../api/template-sample.ts';
import { type PageFrame, type PointRect, rectFromDrag, toPixels } from '../geometry.ts';
import { PositionBox } from './position-box.tsx';

/** A press that moves less than this many pixels is a click (it clears the selection), not a drawn box. */
const CLICK_SLOP = 4;

interface Sketch {
  pointerId: number;
  from: { x: number; y: number };
  to: { x: number; y: number };
}

/** The page drawn, in points, with its scale: known once pdf.js laid the page out. */
export function usePageFrame(pdf: PDFDocumentProxy, pageNumber: number) {
  const { frame, canvas, drawn, rendered } = usePageCanvas(pdf, pageNumber, null);
  const page = useMemo<PageFrame | null>(() => {
    if (!drawn) return null;
    const natural = drawn.page.getViewport({ scale: 1 });
    return { width: natural.width, height: natural.height, scale: drawn.scale };
  }, [drawn]);
  return { frame, canvas, page, rendered };
}

/**
 * The sample's pages one at a time at the frame's width, with the reading positions of that page as boxes. Pressing
 * and dragging on the page (mouse, pen or finger) draws a new box; boxes are selected, moved and resized in place.
 */
export function PositionBoard(props: {
  pdf: PDFDocumentProxy;
  title: string;
  pageNumber: number;
  onPage: (page: number) => void;
  positions: ReadingPosition[];
  selected: number | null;
  labelOf: (position: ReadingPosition) => string;
  onSelect: (index: number | null) => void;
  onDraw: (page: number, rect: PointRect) => void;
  onChange: (index: number, rect: PointRect) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('aiOcr');
  const hintId = useId();
  const { frame, canvas, page, rendered } = usePageFrame(props.pdf, props.pageNumber);
  const sheet = useRef<HTMLDivElement>(null);
  const [sketch, setSketch] = useState<Sketch | null>(null);

  const at = (event: PointerEvent) => {
    const box = sheet.current!.getBoundingClientRect();
    return { x: event.clientX - box.left, y: event.clientY - box.top };
  };
  const down = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || !page) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const point = at(event);
    setSketch({ pointerId: event.pointerId, from: point, to: point });
  };
  const move = (event: PointerEvent<HTMLDivElement>) => {
    if (sketch?.pointerId !== event.pointerId) return;
    setSketch({ ...sketch, to: at(event) });
  };
  const up = (event: PointerEvent<HTMLDivElement>) => {
    if (sketch?.pointerId !== event.pointerId || !page) return;
    setSketch(null);
    const to = at(event);
    const moved = Math.abs(to.x - sketch.from.x) >= CLICK_SLOP || Math.abs(to.y - sketch.from.y) >= CLICK_SLOP;
    if (moved) props.onDraw(props.pageNumber, rectFromDrag(sketch.from, to, page));
    else props.onSelect(null);
  };
  const cancel = () => setSketch(null);
  const preview = sketch && page ? toPixels(rectFromDrag(sketch.from, sketch.to, page), page.scale) : null;

  return (
    <div className="reading-page">
      <PageSteps namespace="aiOcr" page={props.pageNumber} pages={props.pdf.numPages} onPage={props.onPage} />
      <p id={hintId} className="hint">
        {t('editor.drawHint')}
      </p>
      <div ref={frame} className="reading-frame" role="region" aria-label={t('viewer.frame', { title: props.title })}>
        <div
          ref={sheet}
          className="reading-sheet"
          data-testid="reading-sheet"
          style={page ? { width: page.width * page.scale, height: page.height * page.scale } : undefined}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerCancel={cancel}
        >
          <PageImage
            namespace="aiOcr"
            canvas={canvas}
            title={props.title}
            page={props.pageNumber}
            pages={props.pdf.numPages}
            rendered={rendered}
          />
          {page &&
            props.positions.map((position, index) =>
              position.page === props.pageNumber ? (
                <PositionBox
                  key={index}
                  rect={position}
                  frame={page}
                  label={props.labelOf(position)}
                  selected={props.selected === index}
                  hintId={hintId}
                  onSelect={() => props.onSelect(index)}
                  onChange={(rect) => props.onChange(index, rect)}
                  onRemove={() => props.onRemove(index)}
                />
              ) : null,
            )}
          {preview && <div className="reading-sketch" style={preview} aria-hidden="true" />}
        </div>
      </div>
    </div>
  );
}
