import { type KeyboardEvent, type PointerEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { moveRect, type PageFrame, type PointRect, resizeRect, toPixels } from '../geometry.ts';

/** Arrow keys move (Shift: resize) a box by this many points. */
const KEY_STEP = 1;

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
  rect: PointRect;
}

/**
 * One reading position on the drawn page, labelled with its property: pressing it selects it, dragging moves it,
 * its corner handle resizes it, arrow keys move it a point (Shift: resize) and Delete removes it.
 */
export function PositionBox(props: {
  rect: PointRect;
  frame: PageFrame;
  label: string;
  selected: boolean;
  highlighted?: boolean;
  hintId: string;
  onSelect: () => void;
  onChange: (rect: PointRect) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('aiOcr');
  const drag = useRef<Drag | null>(null);
  const box = toPixels(props.rect, props.frame.scale);

  const start = (mode: Drag['mode']) => (event: PointerEvent<HTMLElement>) => {
    if (event.button !== 0) return;
    event.preventDefault();
    event.stopPropagation();
    props.onSelect();
    event.currentTarget.setPointerCapture(event.pointerId);
    drag.current = { mode, pointerId: event.pointerId, x: event.clientX, y: event.clientY, rect: props.rect };
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    const current = drag.current;
    if (!current || current.pointerId !== event.pointerId) return;
    const [dx, dy] = [event.clientX - current.x, event.clientY - current.y];
    props.onChange(
      current.mode === 'move'
        ? moveRect(current.rect, dx, dy, props.frame)
        : resizeRect(current.rect, dx, dy, props.frame),
    );
  };
  const end = (event: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId !== event.pointerId) return;
    drag.current = null;
    if (event.currentTarget.hasPointerCapture(event.pointerId))
      event.currentTarget.releasePointerCapture(event.pointerId);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Delete' || event.key === 'Backspace') {
      event.preventDefault();
      props.onRemove();
      return;
    }
    const arrow = ARROWS[event.key];
    if (!arrow) return;
    event.preventDefault();
    // Points, not pixels: the step is the same at any width.
    const step = KEY_STEP * props.frame.scale;
    const [dx, dy] = [arrow[0] * step, arrow[1] * step];
    props.onChange(
      event.shiftKey ? resizeRect(props.rect, dx, dy, props.frame) : moveRect(props.rect, dx, dy, props.frame),
    );
  };

  const classes = ['reading-box', props.selected && 'selected', props.highlighted && 'highlighted'].filter(Boolean);
  return (
    <div
      className={classes.join(' ')}
      role="group"
      tabIndex={0}
      aria-label={props.label}
      aria-describedby={props.hintId}
      aria-current={props.selected ? 'true' : undefined}
      style={{ left: box.left, top: box.top, width: box.width, height: box.height }}
      onFocus={props.onSelect}
      onPointerDown={start('move')}
      onPointerMove={move}
      onPointerUp={end}
      onPointerCancel={end}
      onKeyDown={onKeyDown}
    >
      <span className="reading-box-label" aria-hidden="true">
        {props.label}
      </span>
      {props.selected && (
        <button
          type="button"
          className="reading-box-remove"
          aria-label={t('editor.removeLabel', { name: props.label })}
          onPointerDown={(event) => event.stopPropagation()}
          onClick={props.onRemove}
        >
          ×
        </button>
      )}
      {props.selected && <span className="reading-box-resize" aria-hidden="true" onPointerDown={start('resize')} />}
    </div>
  );
}
