// The fields the sender placed for a signer (the task's `fields`): boxes at a fixed page and rectangle that the signer
// fills with a seal, a handwritten signature or text. A filled field is a placement carrying the field's id; its page
// and rectangle are the field's, so the signer cannot move it. Pure TypeScript: the unit tests use it as it is.
import type { PdfRect, Placement, PlacementKind } from './placement.ts';

export type FieldKind = 'signature' | 'seal' | 'handwritten' | 'text';

/** One field of the signer's task as the signing screens keep it (TaskField of the contract). */
export interface SignerField {
  id: string;
  kind: FieldKind;
  page: number;
  rect: PdfRect;
  required: boolean;
  label: string | null;
}

/** What a field of the contract looks like on the wire (label and required may be absent). */
export interface FieldInput {
  id?: string | null;
  kind: FieldKind;
  page: number;
  rect: PdfRect;
  required?: boolean | null;
  label?: string | null;
}

/** The task's fields as the screen keeps them: those without an id (never stored) are left out, in page order. */
export function signerFields(fields: readonly FieldInput[] | null | undefined): SignerField[] {
  return (fields ?? [])
    .filter((field): field is FieldInput & { id: string } => typeof field.id === 'string' && field.id !== '')
    .map((field) => ({
      id: field.id,
      kind: field.kind,
      page: field.page,
      rect: field.rect,
      required: field.required !== false,
      label: field.label?.trim() ? field.label.trim() : null,
    }))
    .sort((a, b) => a.page - b.page || b.rect.y2 - a.rect.y2 || a.rect.x1 - b.rect.x1);
}

/** The placement kinds a field takes: a signature field a seal or a handwritten signature, the others their own. */
export function kindsFor(kind: FieldKind): PlacementKind[] {
  return kind === 'signature' ? ['seal', 'handwritten'] : [kind];
}

export function fits(field: Pick<SignerField, 'kind'>, kind: PlacementKind): boolean {
  return kindsFor(field.kind).includes(kind);
}

/** The content a field is filled with: a seal (registered or uploaded), a drawing or text lines. */
export type FieldContent =
  | { kind: 'seal'; sealImageId: string }
  | { kind: 'seal'; image: string }
  | { kind: 'handwritten'; image: string }
  | { kind: 'text'; lines: string[] };

const fieldKey = (fieldId: string) => `field-${fieldId}`;

/**
 * The placements with `field` filled by `content`: any earlier filling of the field is replaced, the signer's own
 * placements stay. A content the field does not take leaves the placements as they are.
 */
export function fillField(placements: readonly Placement[], field: SignerField, content: FieldContent): Placement[] {
  if (!fits(field, content.kind)) return [...placements];
  const filled: Placement = {
    key: fieldKey(field.id),
    fieldId: field.id,
    page: field.page,
    rect: field.rect,
    ...content,
  };
  const at = placements.findIndex((p) => p.fieldId === field.id);
  if (at < 0) return [...placements, filled];
  return placements.map((p, index) => (index === at ? filled : p));
}

/** The placements without the filling of the field. */
export function clearField(placements: readonly Placement[], fieldId: string): Placement[] {
  return placements.filter((p) => p.fieldId !== fieldId);
}

/** The placement that fills the field, if any. */
export function fillingOf(placements: readonly Placement[], fieldId: string): Placement | undefined {
  return placements.find((p) => p.fieldId === fieldId);
}

/** The required fields nobody filled yet, in the order of the fields. */
export function missingFields(fields: readonly SignerField[], placements: readonly Placement[]): SignerField[] {
  const filled = new Set(placements.flatMap((p) => (p.fieldId ? [p.fieldId] : [])));
  return fields.filter((field) => field.required && !filled.has(field.id));
}

/** The signer's own placements (not in a sender's field). */
export function ownPlacements(placements: readonly Placement[]): Placement[] {
  return placements.filter((p) => !p.fieldId);
}

/**
 * The placements that still belong to the task: fillings of fields the task no longer has are dropped, and so are the
 * signer's own placements when the sender does not allow them.
 */
export function keptPlacements(
  placements: readonly Placement[],
  fields: readonly SignerField[],
  allowOwn: boolean,
): Placement[] {
  const ids = new Set(fields.map((field) => field.id));
  return placements.filter((p) => (p.fieldId ? ids.has(p.fieldId) : allowOwn));
}
