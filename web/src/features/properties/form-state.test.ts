import { describe, expect, it } from 'vitest';
import {
  createAttributes,
  emptyForm,
  formOf,
  optionsChanged,
  type PropertyForm,
  serverProblems,
  updateAttributes,
  validateForm,
} from './form-state.ts';

const form = (patch: Partial<PropertyForm>): PropertyForm => ({ ...emptyForm(), name: 'Amount', ...patch });

describe('property form', () => {
  it('starts as a one-line text property of business flows that only lacks a name', () => {
    expect(emptyForm()).toMatchObject({ inputType: 20, scope: 10, maxLength: '1000', minLength: '0' });
    expect(validateForm(emptyForm())).toEqual({ name: [{ code: 'PROPERTY_VALUE_REQUIRED' }] });
  });

  it('checks settings with the shared definition validator, by field', () => {
    const problems = validateForm(form({ inputType: 10, integerLength: '10', decimalLength: '6', minValue: 'x' }));
    expect(problems).toEqual({
      minValue: [{ code: 'PROPERTY_VALUE_NOT_A_NUMBER' }],
      decimalLength: [{ code: 'PROPERTY_DIGITS_EXCEED_LIMIT', params: { max: 15 } }],
    });
    expect(validateForm(form({ inputType: 10, minValue: '5', maxValue: '4' }))).toEqual({
      minValue: [{ code: 'PROPERTY_MIN_VALUE_EXCEEDS_MAX' }],
    });
    expect(validateForm(form({ inputType: 20, maxLength: 'ten' }))).toEqual({
      maxLength: [{ code: 'PROPERTY_SETTING_OUT_OF_RANGE', params: { min: 1, max: 1000 } }],
    });
    const duplicate = form({
      inputType: 40,
      options: [
        { key: 'a', label: 'A', inUse: false },
        { key: 'b', label: 'A', inUse: false },
      ],
    });
    expect(validateForm(duplicate)).toEqual({ 'options/1/label': [{ code: 'PROPERTY_OPTION_LABEL_DUPLICATE' }] });
  });

  it('sends only the settings of the input type, and option labels on create', () => {
    const attributes = createAttributes(
      form({ inputType: 40, maxLength: '50', options: [{ key: 'k', label: ' Red ', inUse: false }] }),
    );
    expect(attributes).toMatchObject({ name: 'Amount', inputType: 40, maxLength: null, options: [{ label: 'Red' }] });
    expect(createAttributes(form({ inputType: 10, minValue: '1,000' }))).toMatchObject({ options: [] });
  });

  it('sends options with their version on update only when they changed', () => {
    const stored = [{ id: 'o1', label: 'Red' }];
    const current = form({ inputType: 40, options: [{ key: 'k', id: 'o1', label: 'Red', inUse: true }] });
    expect(optionsChanged(current, stored)).toBe(false);
    expect(updateAttributes(current, { lockVersion: 3, optionsVersion: 7 }, false)).not.toHaveProperty('options');
    const added = { ...current, options: [...current.options, { key: 'n', label: 'Blue', inUse: false }] };
    expect(optionsChanged(added, stored)).toBe(true);
    expect(updateAttributes(added, { lockVersion: 3, optionsVersion: 7 }, true)).toMatchObject({
      lockVersion: 3,
      optionsVersion: 7,
      options: [{ id: 'o1', label: 'Red' }, { label: 'Blue' }],
    });
  });

  it('reads a stored property back into the form', () => {
    const round = formOf({
      type: 'Property',
      id: 'p1',
      attributes: {
        ...createAttributes(form({ inputType: 10, numberUnit: 20, decimalLength: '2', integerLength: '5' })),
        options: [],
        optionsVersion: 0,
        inUse: false,
        lockVersion: 0,
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      },
    });
    expect(round).toMatchObject({ inputType: 10, numberUnit: 20, integerLength: '5', decimalLength: '2' });
  });

  it('places the server’s 422 field errors by attribute path, with its rendered messages', () => {
    const messages = { ja: '3桁', en: '3 digits' };
    expect(
      serverProblems([
        { code: 'PROPERTY_NAME_TAKEN', source: { pointer: '/data/attributes/name' } },
        {
          code: 'PROPERTY_VALUE_TOO_LONG',
          source: { pointer: '/data/attributes/options/2/label' },
          meta: { messages },
        },
        { code: 'PROPERTY_LIMIT', source: { pointer: '/data' } },
      ]),
    ).toEqual({
      name: [{ code: 'PROPERTY_NAME_TAKEN' }],
      'options/2/label': [{ code: 'PROPERTY_VALUE_TOO_LONG', messages }],
    });
  });
});
