/*
 * What a signer places on the document (seal image, handwritten drawing, text), checked against the PDF and turned
 * into the engine's appearances: the page must exist, the rectangle must lie inside the page with its lower-left
 * corner before its upper-right one, text is at most 3 lines of 7 characters, images must decode. A seal is one of
 * the signer's seal images or an image given inline as a data URL (a one-time user has no stored seal images). The pages' sizes
 * are read in the PDF worker pool (PDF_TOO_COMPLEX over the budget, PDF_WORK_BUSY when full).
 *
 * The sender may have placed fields for the task (task_fields): a placement naming one (fieldId) takes the field's
 * page and rectangle, and its kind must fit the field (a signature field takes a seal or a handwritten signature);
 * every required field must be filled; without a fieldId a placement is the signer's own, allowed only when the task
 * allows signer placements (resolvePlacements, run in the signing checks).
 */
import type { Knex } from 'knex';
import type { FileStore } from '../../files/blob-store.ts';
import { AppError } from '../../http/errors.ts';
import type { PdfWorkPool } from '../../pdf-work/pool.ts';
import { TEXT_MAX_CHARACTERS, TEXT_MAX_LINES } from '../../signing/appearance.ts';
import type { Appearance } from '../../signing/types.ts';

export interface PlacementInput {
  kind: 'seal' | 'handwritten' | 'text';
  /** One of the task's fields: its page and rect are used (the request's are ignored). */
  fieldId?: string;
  page?: number;
  rect?: { x1: number; y1: number; x2: number; y2: number };
  sealImageId?: string;
  image?: string;
  lines?: string[];
}

/** A placement with its page and rectangle known (its own, or its field's). */
export type ResolvedPlacement = PlacementInput & {
  page: number;
  rect: { x1: number; y1: number; x2: number; y2: number };
};

/** Which placement kinds fill a field of each kind. */
const FITS: Record<string, readonly PlacementInput['kind'][]> = {
  signature: ['seal', 'handwritten'],
  seal: ['seal'],
  handwritten: ['handwritten'],
  text: ['text'],
};

/**
 * Resolves the placements of a signature against the task's fields: SIGNING_FIELD_NOT_FOUND (a field of another
 * task or none), SIGNING_FIELD_KIND_MISMATCH, SIGNING_OWN_PLACEMENT_NOT_ALLOWED, and SIGNING_FIELD_REQUIRED (params
 * fieldId, label, page) for a required field left empty. The pages and rectangles are checked later against the PDF.
 */
export async function resolvePlacements(
  db: Knex,
  task: { id: string; allow_signer_placements: boolean },
  placements: readonly PlacementInput[],
): Promise<ResolvedPlacement[]> {
  const fields: Record<string, any>[] = await db('task_fields')
    .where({ task_id: task.id })
    .orderBy([{ column: 'position' }, { column: 'id' }]);
  const filled = new Set<string>();
  const resolved = placements.map((placement, i): ResolvedPlacement => {
    const at = `/data/attributes/placements/${i}`;
    if (placement.fieldId !== undefined) {
      const field = fields.find((f) => f.id === placement.fieldId);
      if (!field) throw new AppError('SIGNING_FIELD_NOT_FOUND', { pointer: `${at}/fieldId` });
      if (!FITS[field.kind as string]!.includes(placement.kind)) {
        throw new AppError('SIGNING_FIELD_KIND_MISMATCH', { pointer: `${at}/kind`, params: { kind: field.kind } });
      }
      if (filled.has(field.id)) {
        throw new AppError('VALIDATION_FAILED', { pointer: `${at}/fieldId`, detail: 'the field is filled twice' });
      }
      filled.add(field.id);
      const rect = { x1: Number(field.x1), y1: Number(field.y1), x2: Number(field.x2), y2: Number(field.y2) };
      return { ...placement, page: field.page as number, rect };
    }
    if (!task.allow_signer_placements) throw new AppError('SIGNING_OWN_PLACEMENT_NOT_ALLOWED', { pointer: at });
    if (placement.page === undefined) throw new AppError('VALIDATION_FAILED', { pointer: `${at}/page` });
    if (!placement.rect) throw new AppError('VALIDATION_FAILED', { pointer: `${at}/rect` });
    return placement as ResolvedPlacement;
  });
  const missing = fields.find((f) => f.required && !filled.has(f.id));
  if (missing) {
    throw new AppError('SIGNING_FIELD_REQUIRED', {
      pointer: '/data/attributes/placements',
      params: { fieldId: missing.id, label: missing.label ?? '', page: missing.page },
    });
  }
  return resolved;
}

const DATA_URL = /^data:(image\/(?:png|jpeg|gif));base64,([A-Za-z0-9+/=\s]+)$/;

/** An inline image (a data URL of PNG, JPEG or GIF); SIGNING_IMAGE_INVALID at `pointer` otherwise. */
function inlineImage(dataUrl: string | undefined, pointer: string): NonNullable<Appearance['image']> {
  const match = DATA_URL.exec(dataUrl ?? '');
  if (!match) throw new AppError('SIGNING_IMAGE_INVALID', { pointer });
  return {
    bytes: Buffer.from(match[2]!, 'base64'),
    contentType: match[1] as 'image/png' | 'image/jpeg' | 'image/gif',
  };
}

/**
 * Checks `placements` against the document `pdf` and turns them into the engine's appearances; `userId` owns the
 * seal images a placement may name (null for a one-time user).
 */
export async function appearancesOf(
  db: Knex,
  files: FileStore,
  userId: string | null,
  pdf: Uint8Array,
  placements: readonly ResolvedPlacement[],
  pdfWork: PdfWorkPool,
): Promise<Appearance[]> {
  if (placements.length === 0) return [];
  const sizes = await pdfWork.run('pageSizes', { pdf });
  const appearances: Appearance[] = [];
  for (const [i, placement] of placements.entries()) {
    const at = `/data/attributes/placements/${i}`;
    const size = sizes[placement.page - 1];
    if (!size) {
      throw new AppError('SIGNING_PAGE_NOT_FOUND', {
        pointer: `${at}/page`,
        params: { page: placement.page, pages: sizes.length },
      });
    }
    const { x1, y1, x2, y2 } = placement.rect;
    const inside = x1 >= 0 && y1 >= 0 && x2 <= size.width && y2 <= size.height;
    if (!(x1 < x2 && y1 < y2) || !inside) {
      throw new AppError('SIGNING_POSITION_OUT_OF_RANGE', { pointer: `${at}/rect` });
    }
    const appearance: Appearance = { page: placement.page, rect: [x1, y1, x2, y2] };
    if (placement.kind === 'text') {
      const lines = (placement.lines ?? []).map((line) => line.trim()).filter(Boolean);
      if (lines.length === 0) throw new AppError('VALIDATION_FAILED', { pointer: `${at}/lines` });
      if (lines.length > TEXT_MAX_LINES || lines.some((line) => [...line].length > TEXT_MAX_CHARACTERS)) {
        throw new AppError('SIGNING_TEXT_TOO_LONG', { pointer: `${at}/lines` });
      }
      appearance.text = lines;
    } else if (placement.kind === 'seal' && placement.image !== undefined) {
      appearance.image = inlineImage(placement.image, `${at}/image`);
    } else if (placement.kind === 'seal') {
      const seal =
        placement.sealImageId && userId
          ? await db('seal_images')
              .where({ id: placement.sealImageId, user_id: userId })
              .first('sha256', 'content_type')
          : null;
      if (!seal) throw new AppError('REFERENCE_NOT_FOUND', { pointer: `${at}/sealImageId` });
      appearance.image = { bytes: await files.read(seal.sha256 as string), contentType: seal.content_type };
    } else {
      appearance.image = inlineImage(placement.image, `${at}/image`);
    }
    appearances.push(appearance);
  }
  return appearances;
}
