/*
 * Visible elements of a signature: a seal or handwritten image and up to three lines of embedded text, drawn as form
 * XObjects. Text uses Noto Sans JP (TrueType, shipped through npm) embedded as a subset with a ToUnicode map, so the
 * signed PDF's text can still be copied and searched.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  beginText,
  PDFArray,
  concatTransformationMatrix,
  drawObject,
  endText,
  moveText,
  type PDFDict,
  type PDFDocument,
  type PDFFont,
  type PDFImage,
  PDFName,
  type PDFPage,
  type PDFRef,
  popGraphicsState,
  pushGraphicsState,
  setFillingRgbColor,
  setFontAndSize,
  showText,
} from '@cantoo/pdf-lib';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';
import { AppError } from '../http/errors.ts';
import type { Appearance } from './types.ts';

export const TEXT_MAX_LINES = 3;
export const TEXT_MAX_CHARACTERS = 7;

let fontBytes: Uint8Array | null = null;
function japaneseFont(): Uint8Array {
  if (!fontBytes) {
    const packageJson = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans-jp/package.json');
    fontBytes = readFileSync(path.join(path.dirname(packageJson), '400Regular', 'NotoSansJP_400Regular.ttf'));
  }
  return fontBytes;
}

/** GIF has no PDF image filter: the first frame becomes a PNG (with its transparency). */
export function gifToPng(bytes: Uint8Array): Uint8Array {
  const reader = new GifReader(Buffer.from(bytes));
  const png = new PNG({ width: reader.width, height: reader.height });
  const pixels = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, pixels);
  png.data = Buffer.from(pixels);
  return new Uint8Array(PNG.sync.write(png));
}

export interface AppearanceResources {
  images: (PDFImage | null)[];
  font: PDFFont | null;
}

/** Embeds the images and (when any text is drawn) the font subset; a broken image is SIGNING_IMAGE_INVALID. */
export async function prepareAppearanceResources(
  doc: PDFDocument,
  appearances: readonly Appearance[],
): Promise<AppearanceResources> {
  const images = await Promise.all(
    appearances.map(async (appearance) => {
      const image = appearance.image;
      if (!image) return null;
      try {
        if (image.contentType === 'image/jpeg') return await doc.embedJpg(image.bytes);
        const png = image.contentType === 'image/gif' ? gifToPng(image.bytes) : image.bytes;
        return await doc.embedPng(png);
      } catch (error) {
        throw new AppError('SIGNING_IMAGE_INVALID', { cause: error });
      }
    }),
  );
  let font: PDFFont | null = null;
  const characters = appearances.flatMap((a) => a.text ?? []).join('');
  if (characters.length > 0) {
    // fontkit's subsetter fails on Noto Sans JP, so harfbuzz cuts the subset and pdf-lib embeds it as it is, with a
    // ToUnicode map of the glyphs drawn and the subset tag (six letters and '+', ISO 32000 §9.6.4) in its name.
    // Both libraries load only when text is drawn (fontkit alone takes about 300 ms).
    const [{ default: subsetFont }, { default: fontkit }] = await Promise.all([
      import('subset-font'),
      import('@pdf-lib/fontkit'),
    ]);
    const subset = await subsetFont(Buffer.from(japaneseFont()), characters, { targetFormat: 'truetype' });
    doc.registerFontkit(fontkit);
    const tag = Array.from(randomBytes(6), (b) => String.fromCharCode(65 + (b % 26))).join('');
    font = await doc.embedFont(subset, { subset: false, customName: `${tag}+NotoSansJP-Regular` });
  }
  return { images, font };
}

/**
 * Draws one element: into `widget`'s normal appearance when given (the signature's own widget), otherwise as a
 * locked, printable stamp annotation on its page. Images keep their aspect ratio, centred in the rectangle; text
 * is sized to fit its longest line and the number of lines.
 */
export function drawAppearance(
  doc: PDFDocument,
  font: PDFFont | null,
  image: PDFImage | null,
  appearance: Appearance,
  widget: PDFDict | null,
  page: (number: number) => PDFPage,
): void {
  const { context } = doc;
  const [x1, y1, x2, y2] = appearance.rect;
  const width = x2 - x1;
  const height = y2 - y1;
  const operators = [pushGraphicsState()];
  const xObjects: Record<string, PDFRef> = {};
  if (image) {
    const scale = Math.min(width / image.width, height / image.height);
    const w = image.width * scale;
    const h = image.height * scale;
    operators.push(
      pushGraphicsState(),
      concatTransformationMatrix(w, 0, 0, h, (width - w) / 2, (height - h) / 2),
      drawObject('Im0'),
      popGraphicsState(),
    );
    xObjects.Im0 = image.ref;
  }
  const fonts: Record<string, PDFRef> = {};
  const lines = appearance.text ?? [];
  if (lines.length > 0 && font) {
    const longest = Math.max(...lines.map((line) => font.widthOfTextAtSize(line, 1)), 0.5);
    const size = Math.max(4, Math.min((height / lines.length) * 0.8, (width * 0.95) / longest));
    const lineHeight = height / lines.length;
    operators.push(setFillingRgbColor(0, 0, 0), beginText(), setFontAndSize('F0', size));
    let previousY = 0;
    lines.forEach((line, i) => {
      const y = height - lineHeight * (i + 1) + (lineHeight - size) / 2 + size * 0.12;
      const x = (width - font.widthOfTextAtSize(line, size)) / 2;
      operators.push(moveText(i === 0 ? x : x - previousX(lines, font, size, i, width), y - previousY));
      previousY = y;
      operators.push(showText(font.encodeText(line)));
    });
    operators.push(endText());
    fonts.F0 = font.ref;
  }
  operators.push(popGraphicsState());
  const stream = context.formXObject(operators, {
    BBox: [0, 0, width, height],
    Resources: { XObject: xObjects, Font: fonts },
  });
  const streamRef = context.register(stream);
  if (widget) {
    widget.set(PDFName.of('AP'), context.obj({ N: streamRef }));
    return;
  }
  const target = page(appearance.page);
  const stamp = context.obj({
    Type: 'Annot',
    Subtype: 'Stamp',
    Rect: appearance.rect,
    F: 132, // Print | Locked
    P: target.ref,
    AP: { N: streamRef },
  });
  const stampRef = context.register(stamp);
  const annots = target.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
  if (annots) annots.push(stampRef);
  else target.node.set(PDFName.of('Annots'), context.obj([stampRef]));
}

/** Text moves are relative: the x of line i-1, so line i lands centred. */
function previousX(lines: string[], font: PDFFont, size: number, i: number, width: number): number {
  return (width - font.widthOfTextAtSize(lines[i - 1]!, size)) / 2;
}
