import { describe, expect, it } from 'vitest';
import { clampRect, moveRect, rectFromDrag, resizeRect, toPixels } from './geometry.ts';

// An A4 page (595.3 x 841.9 pt) drawn at 0.5 px per point (a 360 px screen shows it about 300 px wide).
const frame = { width: 595.3, height: 841.9, scale: 0.5 };

describe('reading position geometry', () => {
  it('turns a drag in pixels into points from the top-left corner (x_pt = x_px / scale), whichever way it went', () => {
    expect(rectFromDrag({ x: 50, y: 100 }, { x: 150, y: 120 }, frame)).toEqual({
      x: 100,
      y: 200,
      width: 200,
      height: 40,
    });
    expect(rectFromDrag({ x: 150, y: 120 }, { x: 50, y: 100 }, frame)).toEqual({
      x: 100,
      y: 200,
      width: 200,
      height: 40,
    });
  });

  it('keeps a drag that leaves the page on it, and gives a click the smallest size', () => {
    expect(rectFromDrag({ x: 250, y: 400 }, { x: 900, y: 900 }, frame)).toEqual({
      x: 500,
      y: 800,
      width: 95.3,
      height: 41.9,
    });
    expect(rectFromDrag({ x: 10, y: 10 }, { x: 10, y: 10 }, frame)).toEqual({ x: 20, y: 20, width: 2, height: 2 });
  });

  it('draws points at the scale and moves and resizes within the page', () => {
    expect(toPixels({ x: 100, y: 200, width: 200, height: 40 }, 0.5)).toEqual({
      left: 50,
      top: 100,
      width: 100,
      height: 20,
    });
    const rect = { x: 100, y: 200, width: 200, height: 40 };
    expect(moveRect(rect, 20, -10, frame)).toEqual({ x: 140, y: 180, width: 200, height: 40 });
    expect(moveRect(rect, 1000, 1000, frame)).toEqual({ x: 395.3, y: 801.9, width: 200, height: 40 });
    expect(resizeRect(rect, 1000, -100, frame)).toEqual({ x: 100, y: 200, width: 495.3, height: 2 });
    expect(clampRect({ x: -5, y: 0, width: 1, height: 1 }, frame)).toEqual({ x: 0, y: 0, width: 2, height: 2 });
  });
});
