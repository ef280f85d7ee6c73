import { describe, expect, it } from 'vitest';
import {
  clearField,
  fillField,
  fillingOf,
  fits,
  keptPlacements,
  kindsFor,
  missingFields,
  ownPlacements,
  type SignerField,
  signerFields,
} from './fields.ts';
import { type Placement, placementInputs } from './placement.ts';
import { signAttributes, signProblems } from './sign-request.ts';

const rect = { x1: 350, y1: 100, x2: 500, y2: 160 };
const signature: SignerField = { id: 'f-sign', kind: 'signature', page: 1, rect, required: true, label: '乙の署名' };
const text: SignerField = {
  id: 'f-text',
  kind: 'text',
  page: 2,
  rect: { x1: 50, y1: 700, x2: 160, y2: 748 },
  required: false,
  label: null,
};
const own: Placement = { key: 'own-1', kind: 'text', page: 1, rect: { x1: 1, y1: 1, x2: 50, y2: 30 }, lines: ['承認'] };

describe('signerFields', () => {
  it('keeps stored fields only, required unless told otherwise, blank labels as none, in reading order', () => {
    const fields = signerFields([
      { id: 'b', kind: 'text', page: 2, rect, required: false, label: '  ' },
      { kind: 'seal', page: 1, rect },
      { id: 'low', kind: 'seal', page: 1, rect: { x1: 10, y1: 10, x2: 60, y2: 60 }, label: ' 社印 ' },
      { id: 'high', kind: 'signature', page: 1, rect: { x1: 10, y1: 700, x2: 160, y2: 760 }, required: null },
    ]);
    expect(fields.map((f) => [f.id, f.required, f.label])).toEqual([
      ['high', true, null],
      ['low', true, '社印'],
      ['b', false, null],
    ]);
    expect(signerFields(undefined)).toEqual([]);
  });
});

describe('what a field takes', () => {
  it('fills a signature field with a seal or a handwritten signature, the others with their own kind', () => {
    expect(kindsFor('signature')).toEqual(['seal', 'handwritten']);
    expect(fits({ kind: 'seal' }, 'seal')).toBe(true);
    expect(fits({ kind: 'seal' }, 'handwritten')).toBe(false);
    expect(fits({ kind: 'handwritten' }, 'handwritten')).toBe(true);
    expect(fits({ kind: 'text' }, 'seal')).toBe(false);
  });
});

describe('filling fields', () => {
  it("puts the content at the field's page and rectangle, and replaces an earlier filling", () => {
    const once = fillField([own], signature, { kind: 'seal', sealImageId: 'seal-1' });
    expect(once).toEqual([
      own,
      { key: 'field-f-sign', fieldId: 'f-sign', kind: 'seal', page: 1, rect, sealImageId: 'seal-1' },
    ]);
    const again = fillField(once, signature, { kind: 'handwritten', image: 'data:image/png;base64,AAAA' });
    expect(again).toHaveLength(2);
    expect(fillingOf(again, 'f-sign')).toEqual({
      key: 'field-f-sign',
      fieldId: 'f-sign',
      kind: 'handwritten',
      page: 1,
      rect,
      image: 'data:image/png;base64,AAAA',
    });
    expect(ownPlacements(again)).toEqual([own]);
  });

  it('ignores content the field does not take', () => {
    expect(fillField([], text, { kind: 'seal', image: 'data:image/png;base64,AAAA' })).toEqual([]);
  });

  it('clears a field and leaves the rest', () => {
    const filled = fillField(fillField([own], signature, { kind: 'seal', sealImageId: 's' }), text, {
      kind: 'text',
      lines: ['山田'],
    });
    expect(clearField(filled, 'f-sign').map((p) => p.key)).toEqual(['own-1', 'field-f-text']);
  });

  it('names the required fields still empty, in field order', () => {
    const fields = [signature, text, { ...text, id: 'f-seal', kind: 'seal' as const, required: true }];
    expect(missingFields(fields, []).map((f) => f.id)).toEqual(['f-sign', 'f-seal']);
    const filled = fillField([], signature, { kind: 'seal', sealImageId: 's' });
    expect(missingFields(fields, filled).map((f) => f.id)).toEqual(['f-seal']);
    // An own placement at the same spot does not fill the field.
    expect(missingFields([signature], [{ ...own, kind: 'seal', page: 1, rect }])).toHaveLength(1);
  });

  it('drops fillings of fields the task no longer has, and own placements when they are not allowed', () => {
    const filled = fillField([own], signature, { kind: 'seal', sealImageId: 's' });
    expect(keptPlacements(filled, [signature], true)).toEqual(filled);
    expect(keptPlacements(filled, [signature], false).map((p) => p.key)).toEqual(['field-f-sign']);
    expect(keptPlacements(filled, [text], true).map((p) => p.key)).toEqual(['own-1']);
  });
});

describe('the sign request with fields', () => {
  it('sends a filled field by its id without a rectangle, and an own placement with its rectangle', () => {
    const placements = fillField([own], signature, { kind: 'seal', image: 'data:image/png;base64,AAAA' });
    expect(placementInputs(placements)).toEqual([
      { kind: 'text', page: 1, rect: own.rect, lines: ['承認'] },
      { kind: 'seal', page: 1, fieldId: 'f-sign', image: 'data:image/png;base64,AAAA' },
    ]);
  });

  it('refuses to sign while a required field is empty, and sends the fillings once it is filled', () => {
    const draft = {
      signatureType: 'operator',
      twoFactor: 'none' as const,
      needs: { requiresPin: false, requiredPlacement: null },
      placements: [] as Placement[],
      fields: [signature, text],
      pin: '',
      code: '',
      principalId: '',
      comment: '',
    };
    expect(signProblems(draft)).toEqual([{ field: 'placements', key: 'fieldsRequired' }]);
    const withText = { ...draft, placements: fillField([], text, { kind: 'text', lines: ['山田 太郎'] }) };
    expect(signProblems(withText)).toEqual([{ field: 'placements', key: 'fieldsRequired' }]);
    const filled = {
      ...withText,
      placements: fillField(withText.placements, signature, { kind: 'handwritten', image: 'data:image/png;base64,B' }),
    };
    expect(signProblems(filled)).toEqual([]);
    expect(signAttributes(filled, 4)).toEqual({
      lockVersion: 4,
      placements: [
        { kind: 'text', page: 2, fieldId: 'f-text', lines: ['山田 太郎'] },
        { kind: 'handwritten', page: 1, fieldId: 'f-sign', image: 'data:image/png;base64,B' },
      ],
    });
  });

  it('counts a filled signature field as the seal a seal-image signature type needs', () => {
    const draft = {
      signatureType: 'seal-image',
      twoFactor: 'none' as const,
      needs: { requiresPin: false, requiredPlacement: 'seal' as const },
      placements: fillField([], signature, { kind: 'seal', sealImageId: 's' }),
      fields: [signature],
      pin: '',
      code: '',
      principalId: '',
      comment: '',
    };
    expect(signProblems(draft)).toEqual([]);
  });
});
