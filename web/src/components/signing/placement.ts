// Where a seal, a handwritten signature or a text block goes on a page. The contract wants PDF points with the
// origin at the page's lower-left corner; the screen works in CSS pixels from the top-left corner of the drawn page.
// pdf.js's PageViewport maps between the two (scale, the flipped y axis, a rotated page, a MediaBox not at 0,0).
import type { PDFPageProxy } from 'pdfjs-dist';

export type PlacementKind = 'seal' | 'handwritten' | 'text';

/** A rectangle in PDF points, origin lower-left, x1 < x2 and y1 < y2 (SigningRect). */
export interface PdfRect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A box in CSS pixels, relative to the top-left corner of the drawn page. */
export interface ScreenBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** What a drawn page knows: its size on screen and the two directions of pdf.js's viewport transform. */
export interface PageMapping {
  width: number;
  height: number;
  toPdf(x: number, y: number): [number, number];
  toScreen(x: number, y: number): [number, number];
}

/** The mapping between the page as drawn (CSS pixels) and PDF points, from pdf.js's viewport at that scale. */
export function pageMapping(page: PDFPageProxy, scale: number): PageMapping {
  const viewport = page.getViewport({ scale });
  return {
    width: viewport.width,
    height: viewport.height,
    toPdf: (x, y) => viewport.convertToPdfPoint(x, y) as [number, number],
    toScreen: (x, y) => viewport.convertToViewportPoint(x, y) as [number, number],
  };
}

/** One placement as the signing screen keeps it; `key` is local, the rest goes to signTask. */
export interface Placement {
  key: string;
  kind: PlacementKind;
  page: number;
  rect: PdfRect;
  /** kind seal: one of the member's registered seal images. */
  sealImageId?: string;
  /** kind handwritten, or a seal uploaded on the spot: a data URL. */
  image?: string;
  lines?: string[];
  /** Set when the placement fills a field the sender placed: the field's page and rectangle, fixed. */
  fieldId?: string;
}

/** The most placements one signature takes (SignTaskRequest placements maxItems). */
export const MAX_PLACEMENTS = 10;
/** A text block: at most 3 lines of at most 7 characters (422 SIGNING_TEXT_TOO_LONG otherwise). */
export const MAX_TEXT_LINES = 3;
export const MAX_LINE_LENGTH = 7;
/** The smallest box side on screen, so a box never shrinks out of reach. */
export const MIN_BOX_PX = 16;

/** The size a new placement starts with, in PDF points (the handwriting pad's 5:2 shape for a drawn signature). */
export const DEFAULT_SIZE: Record<PlacementKind, { width: number; height: number }> = {
  seal: { width: 60, height: 60 },
  handwritten: { width: 150, height: 60 },
  text: { width: 110, height: 48 },
};

const round = (value: number) => Math.round(value * 100) / 100;

/** A mapping for an unrotated page of `widthPt` × `heightPt` points drawn at `scale` (what pdf.js gives for it). */
export function simpleMapping(widthPt: number, heightPt: number, scale: number): PageMapping {
  return {
    width: widthPt * scale,
    height: heightPt * scale,
    toPdf: (x, y) => [x / scale, heightPt - y / scale],
    toScreen: (x, y) => [x * scale, (heightPt - y) * scale],
  };
}

/** The PDF rectangle of a screen box: both corners converted, then ordered, whatever the page's rotation. */
export function toPdfRect(box: ScreenBox, mapping: PageMapping): PdfRect {
  const [ax, ay] = mapping.toPdf(box.left, box.top);
  const [bx, by] = mapping.toPdf(box.left + box.width, box.top + box.height);
  return {
    x1: round(Math.min(ax, bx)),
    y1: round(Math.min(ay, by)),
    x2: round(Math.max(ax, bx)),
    y2: round(Math.max(ay, by)),
  };
}

/** The screen box of a PDF rectangle on the page as it is drawn now. */
export function toScreenBox(rect: PdfRect, mapping: PageMapping): ScreenBox {
  const [ax, ay] = mapping.toScreen(rect.x1, rect.y1);
  const [bx, by] = mapping.toScreen(rect.x2, rect.y2);
  return {
    left: Math.min(ax, bx),
    top: Math.min(ay, by),
    width: Math.abs(bx - ax),
    height: Math.abs(by - ay),
  };
}

/** The box moved or resized back inside the page (the server refuses rectangles outside it). */
export function clampBox(box: ScreenBox, mapping: Pick<PageMapping, 'width' | 'height'>): ScreenBox {
  const width = Math.min(Math.max(box.width, MIN_BOX_PX), mapping.width);
  const height = Math.min(Math.max(box.height, MIN_BOX_PX), mapping.height);
  return {
    left: Math.min(Math.max(box.left, 0), mapping.width - width),
    top: Math.min(Math.max(box.top, 0), mapping.height - height),
    width,
    height,
  };
}

/** A new placement's box: its default size in points, centred on the page, kept inside it. */
export function defaultBox(kind: PlacementKind, mapping: PageMapping, aspect?: number): ScreenBox {
  const size = DEFAULT_SIZE[kind];
  const [x0, y0] = mapping.toScreen(0, 0);
  const [x1, y1] = mapping.toScreen(size.width, size.height);
  const pxPerPoint = Math.hypot(x1 - x0, y1 - y0) / Math.hypot(size.width, size.height);
  let width = size.width * pxPerPoint;
  let height = size.height * pxPerPoint;
  // A seal keeps its image's shape within the default square.
  if (aspect && aspect > 0) {
    if (aspect >= 1) height = width / aspect;
    else width = height * aspect;
  }
  return clampBox({ left: (mapping.width - width) / 2, top: (mapping.height - height) / 2, width, height }, mapping);
}

/** The text lines as they are sent: trimmed at the end, empty trailing lines dropped. */
export function textLines(lines: readonly string[]): string[] {
  const trimmed = lines.map((line) => line.replace(/\s+$/u, ''));
  while (trimmed.length > 0 && trimmed[trimmed.length - 1] === '') trimmed.pop();
  return trimmed;
}

/** Characters as the server counts them (code points, so a surrogate pair is one). */
export const characterCount = (text: string) => [...text].length;

/** Why a text block cannot be placed: no text, or a line longer than 7 characters. */
export function textProblem(lines: readonly string[]): 'textEmpty' | 'textTooLong' | null {
  const kept = textLines(lines);
  if (kept.length === 0) return 'textEmpty';
  if (kept.length > MAX_TEXT_LINES || kept.some((line) => characterCount(line) > MAX_LINE_LENGTH)) {
    return 'textTooLong';
  }
  return null;
}

/**
 * The placements as SigningPlacement objects of the contract. A filled field names the field: the server takes its
 * page and rectangle from the field, so the rectangle is not sent.
 */
export function placementInputs(placements: readonly Placement[]) {
  return placements.map((p) => ({
    kind: p.kind,
    page: p.page,
    ...(p.fieldId ? { fieldId: p.fieldId } : { rect: p.rect }),
    ...(p.kind === 'seal' && p.sealImageId ? { sealImageId: p.sealImageId } : {}),
    // A drawing, or a seal image uploaded on the spot (the guest's seal), travels inline as a data URL.
    ...((p.kind === 'handwritten' || p.kind === 'seal') && p.image ? { image: p.image } : {}),
    ...(p.kind === 'text' && p.lines ? { lines: textLines(p.lines) } : {}),
  }));
}
