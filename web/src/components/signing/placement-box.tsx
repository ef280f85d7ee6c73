import { type KeyboardEvent, type PointerEvent, type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import {
  clampBox,
  type PageMapping,
  type PdfRect,
  type Placement,
  type ScreenBox,
  toPdfRect,
  toScreenBox,
} from './placement.ts';

/** Arrow keys move (or, with Shift, resize) a box by this many CSS pixels. */
const KEY_STEP = 4;

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

interface Drag {
  mode: 'move' | 'resize';
  pointerId: number;
  x: number;
  y: number;
  box: ScreenBox;
}

/**
 * One placement on the drawn page: drag it to move it, drag its lower-right handle to resize it, or use the arrow
 * keys (Shift to resize). Every change is kept inside the page and handed on in PDF points.
 */
export function PlacementBox(props: {
  placement: Placement;
  mapping: PageMapping;
  label: string;
  hintId: string;
  onChange: (rect: PdfRect) => void;
  onRemove: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('signing');
  const drag = useRef<Drag | null>(null);
  const box = toScreenBox(props.placement.rect, props.mapping);
  const commit = (next: ScreenBox) => props.onChange(toPdfRect(clampBox(next, props.mapping), props.mapping));

  const start = (mode: Drag['mode']) => (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { mode, pointerId: event.pointerId, x: event.clientX, y: event.clientY, box };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const dx = event.clientX - current.x;
    const dy = event.clientY - current.y;
    const from = current.box;
    commit(
      current.mode === 'move'
        ? { ...from, left: from.left + dx, top: from.top + dy }
        : { ...from, width: from.width + dx, height: from.height + dy },
    );
  };
  const end = (event: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId)) {
      event.currentTarget.releasePointerCapture(event.pointerId);
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const arrow = ARROWS[event.key];
    if (!arrow || event.target !== event.currentTarget) return;
    event.preventDefault();
    const [dx, dy] = [arrow[0] * KEY_STEP, arrow[1] * KEY_STEP];
    commit(
      event.shiftKey
        ? { ...box, width: box.width + dx, height: box.height + dy }
        : { ...box, left: box.left + dx, top: box.top + dy },
    );
  };

  return (
    <div
      className={`placement-box placement-${props.placement.kind}`}
      role="group"
      tabIndex={0}
      aria-label={props.label}
      aria-describedby={props.hintId}
      data-placement={props.placement.kind}
      style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
      onPointerDown={start('move')}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
    >
      <div className="placement-content" aria-hidden="true">
        {props.children}
      </div>
      <button
        type="button"
        className="placement-remove"
        aria-label={t('placements.removeLabel', { label: props.label })}
        onPointerDown={(event) => event.stopPropagation()}
        onClick={props.onRemove}
      >
        ×
      </button>
      {/* Moves and the release bubble to the box, which follows the drag whichever part started it. */}
      <span className="placement-resize" aria-hidden="true" onPointerDown={start('resize')} />
    </div>
  );
}
