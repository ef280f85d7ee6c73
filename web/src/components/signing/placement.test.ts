import { describe, expect, it } from 'vitest';
import {
  clampBox,
  defaultBox,
  type PageMapping,
  placementInputs,
  simpleMapping,
  textLines,
  textProblem,
  toPdfRect,
  toScreenBox,
} from './placement.ts';

// An A4 page (595.28 × 841.89 pt) drawn at half size.
const a4 = simpleMapping(595.28, 841.89, 0.5);

/** A page rotated by 90° as pdf.js maps it: screen x follows PDF y, screen y follows PDF x. */
const rotated: PageMapping = {
  width: 841.89,
  height: 595.28,
  toPdf: (x, y) => [y, x],
  toScreen: (x, y) => [y, x],
};

describe('screen boxes and PDF rectangles', () => {
  it('turns a box at the top-left of the drawn page into points measured from the lower-left corner', () => {
    expect(toPdfRect({ left: 0, top: 0, width: 50, height: 25 }, a4)).toEqual({
      x1: 0,
      y1: 791.89,
      x2: 100,
      y2: 841.89,
    });
  });

  it('turns a box at the bottom-right into a rectangle ending at the page size', () => {
    const box = { left: 297.64 - 30, top: 420.945 - 30, width: 30, height: 30 };
    expect(toPdfRect(box, a4)).toEqual({ x1: 535.28, y1: 0, x2: 595.28, y2: 60 });
  });

  it('orders the corners on a rotated page so x1 < x2 and y1 < y2', () => {
    expect(toPdfRect({ left: 10, top: 20, width: 100, height: 40 }, rotated)).toEqual({
      x1: 20,
      y1: 10,
      x2: 60,
      y2: 110,
    });
  });

  it('maps a rectangle back to the same box', () => {
    const box = { left: 40, top: 100, width: 75, height: 30 };
    const back = toScreenBox(toPdfRect(box, a4), a4);
    expect(back.left).toBeCloseTo(40, 1);
    expect(back.top).toBeCloseTo(100, 1);
    expect(back.width).toBeCloseTo(75, 1);
    expect(back.height).toBeCloseTo(30, 1);
  });

  it('keeps a dragged box inside the page and never smaller than the minimum', () => {
    expect(clampBox({ left: -20, top: 500, width: 4, height: 40 }, a4)).toEqual({
      left: 0,
      top: 420.945 - 40,
      width: 16,
      height: 40,
    });
  });

  it('centres a new box at its default size in points, keeping a seal image its shape', () => {
    const seal = defaultBox('seal', a4, 1.5);
    expect(seal.width).toBeCloseTo(30);
    expect(seal.height).toBeCloseTo(20);
    expect(seal.left + seal.width / 2).toBeCloseTo(297.64 / 2);
    const handwritten = toPdfRect(defaultBox('handwritten', a4), a4);
    expect(handwritten.x2 - handwritten.x1).toBeCloseTo(150, 1);
    expect(handwritten.y2 - handwritten.y1).toBeCloseTo(60, 1);
  });
});

describe('text blocks', () => {
  it('drops trailing empty lines and trailing spaces', () => {
    expect(textLines(['山田', '太郎  ', '', ''])).toEqual(['山田', '太郎']);
    expect(textLines(['', '承認'])).toEqual(['', '承認']);
  });

  it('accepts up to 3 lines of 7 characters and names what is wrong otherwise', () => {
    expect(textProblem(['株式会社テスト', '営業部', '山田'])).toBeNull();
    expect(textProblem(['', '  '])).toBe('textEmpty');
    expect(textProblem(['株式会社テスト本社'])).toBe('textTooLong');
    expect(textProblem(['a', 'b', 'c', 'd'])).toBe('textTooLong');
  });
});

describe('placementInputs', () => {
  it('sends each kind with only its own content', () => {
    const rect = { x1: 1, y1: 2, x2: 3, y2: 4 };
    expect(
      placementInputs([
        { key: 'a', kind: 'seal', page: 1, rect, sealImageId: 'seal-1' },
        { key: 'b', kind: 'handwritten', page: 2, rect, image: 'data:image/png;base64,AAAA' },
        { key: 'c', kind: 'text', page: 1, rect, lines: ['山田', ''] },
      ]),
    ).toEqual([
      { kind: 'seal', page: 1, rect, sealImageId: 'seal-1' },
      { kind: 'handwritten', page: 2, rect, image: 'data:image/png;base64,AAAA' },
      { kind: 'text', page: 1, rect, lines: ['山田'] },
    ]);
  });
});
