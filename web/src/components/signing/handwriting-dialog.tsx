import { type PointerEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The pad's drawing size in canvas pixels (5:2, the shape of a new handwritten placement); CSS scales it. */
const PAD_WIDTH = 600;
const PAD_HEIGHT = 240;

/** The point of a pointer event in the canvas's own pixels, whatever size the canvas is shown at. */
function padPoint(event: PointerEvent<HTMLCanvasElement>): [number, number] {
  const bounds = event.currentTarget.getBoundingClientRect();
  return [
    ((event.clientX - bounds.left) * PAD_WIDTH) / bounds.width,
    ((event.clientY - bounds.top) * PAD_HEIGHT) / bounds.height,
  ];
}

/**
 * A modal pad for a handwritten signature, drawn with a mouse, finger or pen (pointer events); "Place" hands the
 * drawing on as a PNG data URL with a transparent background.
 */
export function HandwritingDialog(props: { open: boolean; onPlace: (image: string) => void; onClose: () => void }) {
  const { t } = useTranslation('signing');
  const dialog = useRef<HTMLDialogElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const last = useRef<[number, number] | null>(null);
  const [inked, setInked] = useState(false);
  const titleId = useId();
  const hintId = useId();

  const clear = () => {
    canvas.current?.getContext('2d')?.clearRect(0, 0, PAD_WIDTH, PAD_HEIGHT);
    setInked(false);
  };

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (props.open && !element.open) {
      clear();
      if (typeof element.showModal === 'function') element.showModal();
      else element.setAttribute('open', '');
    }
    if (!props.open && element.open) element.close();
  }, [props.open]);

  const stroke = (to: [number, number]) => {
    const context = canvas.current?.getContext('2d');
    const from = last.current;
    if (!context || !from) return;
    context.strokeStyle = '#111827';
    context.lineWidth = 5;
    context.lineCap = 'round';
    context.lineJoin = 'round';
    context.beginPath();
    context.moveTo(from[0], from[1]);
    context.lineTo(to[0], to[1]);
    context.stroke();
    last.current = to;
    setInked(true);
  };

  const down = (event: PointerEvent<HTMLCanvasElement>) => {
    event.preventDefault();
    event.currentTarget.setPointerCapture(event.pointerId);
    const point = padPoint(event);
    last.current = point;
    // A tap leaves a dot.
    stroke([point[0] + 0.1, point[1] + 0.1]);
  };
  const move = (event: PointerEvent<HTMLCanvasElement>) => {
    if (last.current) stroke(padPoint(event));
  };
  const up = () => {
    last.current = null;
  };

  return (
    <dialog
      ref={dialog}
      className="confirm-dialog handwriting-dialog"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
    >
      <h2 id={titleId}>{t('handwriting.title')}</h2>
      <p id={hintId} className="hint">
        {t('handwriting.hint')}
      </p>
      <canvas
        ref={canvas}
        className="handwriting-pad"
        width={PAD_WIDTH}
        height={PAD_HEIGHT}
        role="img"
        aria-label={t('handwriting.pad')}
        aria-describedby={hintId}
        onPointerDown={down}
        onPointerMove={move}
        onPointerUp={up}
        onPointerCancel={up}
      />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={clear} disabled={!inked}>
          {t('handwriting.clear')}
        </button>
        <button type="button" className="button" onClick={props.onClose}>
          {t('handwriting.cancel')}
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!inked}
          onClick={() => {
            const image = canvas.current?.toDataURL('image/png');
            if (image) props.onPlace(image);
          }}
        >
          {t('handwriting.place')}
        </button>
      </div>
    </dialog>
  );
}
