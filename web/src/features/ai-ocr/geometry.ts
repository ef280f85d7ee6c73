/*
 * Reading positions are kept in PDF points from the top-left corner of the page as displayed; the screen draws them
 * at `scale` CSS pixels per point (x_pt = x_px / scale). Values are rounded to a tenth of a point.
 */

/** A rectangle in PDF points. */
export interface PointRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The page as displayed, in points, and how many CSS pixels a point takes on screen. */
export interface PageFrame {
  width: number;
  height: number;
  scale: number;
}

/** The smallest side the contract takes (ReadingPosition width and height). */
export const MIN_SIDE = 2;

const round = (value: number) => Math.round(value * 10) / 10;
const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/** The rectangle kept on the page: at least MIN_SIDE a side, never past an edge, rounded. */
export function clampRect(rect: PointRect, page: { width: number; height: number }): PointRect {
  const width = clamp(rect.width, MIN_SIDE, page.width);
  const height = clamp(rect.height, MIN_SIDE, page.height);
  return {
    x: round(clamp(rect.x, 0, page.width - width)),
    y: round(clamp(rect.y, 0, page.height - height)),
    width: round(width),
    height: round(height),
  };
}

/** The rectangle spanned by two points the pointer gave in CSS pixels (from the page's corner), in points. */
export function rectFromDrag(
  from: { x: number; y: number },
  to: { x: number; y: number },
  frame: PageFrame,
): PointRect {
  const left = clamp(Math.min(from.x, to.x), 0, frame.width * frame.scale);
  const top = clamp(Math.min(from.y, to.y), 0, frame.height * frame.scale);
  const right = clamp(Math.max(from.x, to.x), 0, frame.width * frame.scale);
  const bottom = clamp(Math.max(from.y, to.y), 0, frame.height * frame.scale);
  return clampRect(
    {
      x: left / frame.scale,
      y: top / frame.scale,
      width: (right - left) / frame.scale,
      height: (bottom - top) / frame.scale,
    },
    frame,
  );
}

/** The rectangle in CSS pixels on the drawn page. */
export function toPixels(rect: PointRect, scale: number) {
  return { left: rect.x * scale, top: rect.y * scale, width: rect.width * scale, height: rect.height * scale };
}

/** The rectangle moved by a pointer drag of dx, dy CSS pixels, kept on the page. */
export function moveRect(rect: PointRect, dx: number, dy: number, frame: PageFrame): PointRect {
  return clampRect({ ...rect, x: rect.x + dx / frame.scale, y: rect.y + dy / frame.scale }, frame);
}

/** The rectangle resized by a drag of its lower-right corner by dx, dy CSS pixels, kept on the page. */
export function resizeRect(rect: PointRect, dx: number, dy: number, frame: PageFrame): PointRect {
  const width = clamp(rect.width + dx / frame.scale, MIN_SIDE, frame.width - rect.x);
  const height = clamp(rect.height + dy / frame.scale, MIN_SIDE, frame.height - rect.y);
  return clampRect({ ...rect, width, height }, frame);
}
