import { describe, expect, it } from 'vitest';
import { checkDefinition, checkOptions, normalizeDefinition } from './property-definition.ts';
import {
  checkDate,
  checkNumber,
  checkOption,
  checkPropertyValue,
  checkText,
  type Checked,
  INPUT_TYPES,
  isFullWidth,
  NON_NEGATIVE,
  nextDay,
  NUMBER_UNITS,
  POSITIVE,
  SCOPES,
} from './property-values.ts';

const codeOf = (result: Checked<unknown>) => (result.ok ? 'ok' : result.problems[0]!.code);
const valueOf = <T>(result: Checked<T>) => (result.ok ? result.value : undefined);
const yen = { unit: NUMBER_UNITS.yen } as const;

describe('numbers', () => {
  it('accepts only half-width digits with an optional minus and decimal point (must be numbers)', () => {
    for (const ok of ['0', '7', '-12', '007']) expect(codeOf(checkNumber(ok)), ok).toBe('ok');
    for (const bad of ['', 'abc', '1e5', '+1', '１２', '.5', '5.', '1 2', '--1', '-', '0x10', '1.2.3']) {
      expect(codeOf(checkNumber(bad, { decimalLength: 2 })), bad).toBe('PROPERTY_VALUE_NOT_A_NUMBER');
    }
  });

  it('refuses decimals where only integers are allowed (must be integers)', () => {
    expect(codeOf(checkNumber('1.5'))).toBe('PROPERTY_VALUE_NOT_AN_INTEGER');
    expect(codeOf(checkNumber('1.0', { decimalLength: 0 }))).toBe('PROPERTY_VALUE_NOT_AN_INTEGER');
    expect(codeOf(checkNumber('15'))).toBe('ok');
  });

  it('allows at most 15 digits in total', () => {
    expect(codeOf(checkNumber('999999999999999'))).toBe('ok');
    expect(checkNumber('1234567890123456')).toEqual({
      ok: false,
      problems: [{ code: 'PROPERTY_VALUE_INTEGER_DIGITS', field: '', params: { max: 15 } }],
    });
    const rules = { integerLength: 15, decimalLength: 14 };
    expect(codeOf(checkNumber('1234567890.12345', rules))).toBe('ok');
    expect(codeOf(checkNumber('1234567890.123456', rules))).toBe('PROPERTY_VALUE_TOO_MANY_DIGITS');
  });

  it('limits the integer part to integerLength digits, leading zeros not counted', () => {
    expect(codeOf(checkNumber('999', { integerLength: 3 }))).toBe('ok');
    expect(codeOf(checkNumber('0999', { integerLength: 3 }))).toBe('ok');
    expect(codeOf(checkNumber('1000', { integerLength: 3 }))).toBe('PROPERTY_VALUE_INTEGER_DIGITS');
  });

  it('limits the decimal part to decimalLength digits as written', () => {
    expect(codeOf(checkNumber('1.25', { decimalLength: 2 }))).toBe('ok');
    expect(checkNumber('1.250', { decimalLength: 2 })).toEqual({
      ok: false,
      problems: [{ code: 'PROPERTY_VALUE_DECIMAL_DIGITS', field: '', params: { max: 2 } }],
    });
  });

  it('allows yen commas only at thousands positions', () => {
    for (const ok of ['1,234,567', '999', '1,000', '12,345', '123,456', '1234567']) {
      expect(codeOf(checkNumber(ok, yen)), ok).toBe('ok');
    }
    for (const bad of ['12,34', '1,23', '1234,567', ',123', '123,', '1,,234', '0,123', '1,234,56', '1,2345']) {
      expect(codeOf(checkNumber(bad, yen)), bad).toBe('PROPERTY_VALUE_COMMA_POSITION');
    }
    expect(valueOf(checkNumber('-1,234,567', yen))).toBe('-1234567');
  });

  it('refuses commas in numbers without the yen unit', () => {
    expect(codeOf(checkNumber('1,234'))).toBe('PROPERTY_VALUE_NOT_A_NUMBER');
    expect(codeOf(checkNumber('1,234', { unit: NUMBER_UNITS.none }))).toBe('PROPERTY_VALUE_NOT_A_NUMBER');
  });

  it('allows no decimals in yen values unless decimalLength is configured', () => {
    expect(codeOf(checkNumber('1,234.5', yen))).toBe('PROPERTY_VALUE_NOT_AN_INTEGER');
    expect(valueOf(checkNumber('1,234.5', { ...yen, decimalLength: 1 }))).toBe('1234.5');
  });

  it('keeps values within min and max, both inclusive', () => {
    const rules = { min: -10, max: 100, decimalLength: 1 };
    expect(codeOf(checkNumber('-10', rules))).toBe('ok');
    expect(codeOf(checkNumber('100', rules))).toBe('ok');
    expect(checkNumber('-10.1', rules)).toEqual({
      ok: false,
      problems: [{ code: 'PROPERTY_VALUE_BELOW_MIN', field: '', params: { min: -10 } }],
    });
    expect(checkNumber('100.1', rules)).toEqual({
      ok: false,
      problems: [{ code: 'PROPERTY_VALUE_ABOVE_MAX', field: '', params: { max: 100 } }],
    });
  });

  it('offers "0 or more" and "1 or more" lower bounds', () => {
    expect(codeOf(checkNumber('0', NON_NEGATIVE))).toBe('ok');
    expect(codeOf(checkNumber('-1', NON_NEGATIVE))).toBe('PROPERTY_VALUE_BELOW_MIN');
    expect(codeOf(checkNumber('1', POSITIVE))).toBe('ok');
    expect(codeOf(checkNumber('0', POSITIVE))).toBe('PROPERTY_VALUE_BELOW_MIN');
  });

  it('normalizes: no commas, no leading zeros, no minus zero, decimals as written, JSON numbers accepted', () => {
    expect(valueOf(checkNumber(' 0012.50 ', { decimalLength: 2 }))).toBe('12.50');
    expect(valueOf(checkNumber('-0'))).toBe('0');
    expect(valueOf(checkNumber(-0.5, { decimalLength: 1 }))).toBe('-0.5');
    expect(codeOf(checkNumber(Number.NaN))).toBe('PROPERTY_VALUE_NOT_A_NUMBER');
    expect(codeOf(checkNumber(1e21))).toBe('PROPERTY_VALUE_NOT_A_NUMBER');
  });
});

describe('dates', () => {
  it('accepts yyyy-MM-dd and yyyy/MM/dd only, normalized to yyyy-MM-dd', () => {
    expect(valueOf(checkDate('2026-02-28'))).toBe('2026-02-28');
    expect(valueOf(checkDate('2026/02/28'))).toBe('2026-02-28');
    for (const bad of ['2026-2-28', '2026/02-28', '26-02-28', '2026.02.28', '20260228', '2026-02-28T00:00', '']) {
      expect(codeOf(checkDate(bad)), bad).toBe('PROPERTY_VALUE_DATE_FORMAT');
    }
  });

  it('accepts only dates that exist', () => {
    expect(codeOf(checkDate('2026-02-30'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('2026-02-29'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('2028-02-29'))).toBe('ok');
    expect(codeOf(checkDate('2100-02-29'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('2000-02-29'))).toBe('ok');
    expect(codeOf(checkDate('2026-04-31'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('2026-12-31'))).toBe('ok');
    expect(codeOf(checkDate('2026-13-01'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('2026-00-10'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('2026-01-00'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
    expect(codeOf(checkDate('0000-01-01'))).toBe('PROPERTY_VALUE_DATE_NOT_EXIST');
  });

  it('requires a date from tomorrow on where asked, given today', () => {
    const rules = { afterTomorrow: true, today: '2026-12-31' };
    expect(checkDate('2026-12-31', rules)).toEqual({
      ok: false,
      problems: [{ code: 'PROPERTY_VALUE_DATE_BEFORE_TOMORROW', field: '', params: { date: '2027-01-01' } }],
    });
    expect(codeOf(checkDate('2027/01/01', rules))).toBe('ok');
    expect(codeOf(checkDate('2020-01-01', { today: '2026-12-31' }))).toBe('ok');
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });
});

describe('text', () => {
  it('checks min and max length in characters, an emoji counting as one', () => {
    expect(codeOf(checkText('ab', { minLength: 2, maxLength: 3 }))).toBe('ok');
    expect(codeOf(checkText('abc', { minLength: 2, maxLength: 3 }))).toBe('ok');
    expect(codeOf(checkText('a', { minLength: 2 }))).toBe('PROPERTY_VALUE_TOO_SHORT');
    expect(codeOf(checkText('abcd', { maxLength: 3 }))).toBe('PROPERTY_VALUE_TOO_LONG');
    expect(codeOf(checkText('😀😀😀', { maxLength: 3 }))).toBe('ok');
  });

  it('refuses newlines unless allowed, CRLF counting as one character', () => {
    expect(codeOf(checkText('a\nb'))).toBe('PROPERTY_VALUE_NEWLINE');
    expect(codeOf(checkText('a\r\nb', { allowNewline: false }))).toBe('PROPERTY_VALUE_NEWLINE');
    expect(codeOf(checkText('a\rb'))).toBe('PROPERTY_VALUE_NEWLINE');
    expect(valueOf(checkText('a\r\nb', { allowNewline: true, maxLength: 3 }))).toBe('a\nb');
  });

  it('refuses full-width characters when they are disallowed', () => {
    const halfOnly = { allowFullWidth: false };
    expect(codeOf(checkText('ABC-123 ~!', halfOnly))).toBe('ok');
    expect(codeOf(checkText('ｱｲｳﾞ｡', halfOnly))).toBe('ok');
    for (const bad of ['山田', 'あ', 'Ａ', '１', '　', 'é', '😀', 'ア']) {
      expect(codeOf(checkText(`x${bad}`, halfOnly)), bad).toBe('PROPERTY_VALUE_FULL_WIDTH');
    }
    expect(codeOf(checkText('山田', { allowFullWidth: true }))).toBe('ok');
  });

  it('defines full-width as anything outside printable ASCII, half-width katakana, tab and line breaks', () => {
    expect([' ', '~', '\t', '\n', '\r', '\uff61', '\uff9f'].map(isFullWidth)).toEqual(Array(7).fill(false));
    expect(['\u007f', '\u0000', '\uff60', '\uffa0', '\u3000', 'ｰ'.normalize('NFKC')].map(isFullWidth)).toEqual(
      Array(6).fill(true),
    );
  });
});

describe('enum', () => {
  const options = [
    { id: 'a1', label: 'Red' },
    { id: 'b2', label: 'Blue' },
  ];

  it('accepts only the id of one of the options', () => {
    expect(valueOf(checkOption('b2', options))).toEqual({ id: 'b2', label: 'Blue' });
    expect(codeOf(checkOption('Blue', options))).toBe('PROPERTY_VALUE_NOT_AN_OPTION');
    expect(codeOf(checkOption('c3', options))).toBe('PROPERTY_VALUE_NOT_AN_OPTION');
    expect(codeOf(checkOption('a1', []))).toBe('PROPERTY_VALUE_NOT_AN_OPTION');
  });
});

describe('a value against its definition', () => {
  const base = normalizeDefinition({ name: 'x', inputType: INPUT_TYPES.string, scope: SCOPES.businessFlow });

  it('treats empty input as no value, refused only when the property is required', () => {
    for (const empty of [null, undefined, '']) {
      expect(checkPropertyValue(base, empty)).toEqual({ ok: true, value: null });
      expect(codeOf(checkPropertyValue({ ...base, required: true }, empty))).toBe('PROPERTY_VALUE_REQUIRED');
    }
    const number = normalizeDefinition({ name: 'n', inputType: INPUT_TYPES.number, scope: 10, required: true });
    expect(codeOf(checkPropertyValue(number, '  '))).toBe('PROPERTY_VALUE_REQUIRED');
    expect(valueOf(checkPropertyValue(base, '  '))).toBe('  ');
  });

  it('dispatches on the input type with the definition’s settings', () => {
    const number = normalizeDefinition({ name: 'n', inputType: 10, scope: 10, numberUnit: 20, minValue: 1 });
    expect(valueOf(checkPropertyValue(number, '1,000'))).toBe('1000');
    expect(codeOf(checkPropertyValue(number, '0'))).toBe('PROPERTY_VALUE_BELOW_MIN');
    const date = normalizeDefinition({ name: 'd', inputType: 30, scope: 10, afterTomorrow: true });
    expect(codeOf(checkPropertyValue(date, '2026-05-01', { today: '2026-05-01' }))).toBe(
      'PROPERTY_VALUE_DATE_BEFORE_TOMORROW',
    );
    expect(codeOf(checkPropertyValue(date, 20260502))).toBe('PROPERTY_VALUE_DATE_FORMAT');
    const choice = normalizeDefinition({ name: 'e', inputType: 40, scope: 20, options: [{ id: 'o1', label: 'A' }] });
    expect(valueOf(checkPropertyValue(choice, 'o1'))).toBe('o1');
    expect(codeOf(checkPropertyValue(choice, 'A'))).toBe('PROPERTY_VALUE_NOT_AN_OPTION');
    const text = { ...base, maxLength: 2 };
    expect(codeOf(checkPropertyValue(text, 123))).toBe('PROPERTY_VALUE_TOO_LONG');
  });
});

describe('definitions', () => {
  const problemsOf = (input: Parameters<typeof normalizeDefinition>[0]) =>
    checkDefinition(normalizeDefinition(input)).map((p) => `${p.field}:${p.code}`);

  it('fills defaults and clears settings of other input types', () => {
    const number = normalizeDefinition({ name: ' Amount ', inputType: 10, scope: 10, maxLength: 5, decimalLength: 2 });
    expect(number).toMatchObject({ name: 'Amount', numberUnit: 10, integerLength: 13, decimalLength: 2 });
    expect(number).toMatchObject({ maxLength: null, minLength: null, allowNewline: null, afterTomorrow: null });
    const text = normalizeDefinition({ name: 'Memo', inputType: 20, scope: 20, systemLinkId: '  ', minValue: 3 });
    expect(text).toMatchObject({ systemLinkId: null, minValue: null, minLength: 0, maxLength: 1000 });
    expect(text).toMatchObject({ allowNewline: false, allowFullWidth: true, options: [] });
    expect(checkDefinition(number)).toEqual([]);
    expect(checkDefinition(text)).toEqual([]);
  });

  it('requires a name of at most 100 characters', () => {
    expect(problemsOf({ name: '  ', inputType: 30, scope: 10 })).toEqual(['name:PROPERTY_VALUE_REQUIRED']);
    expect(problemsOf({ name: 'x'.repeat(100), inputType: 30, scope: 10 })).toEqual([]);
    expect(problemsOf({ name: 'x'.repeat(101), inputType: 30, scope: 10 })).toEqual(['name:PROPERTY_VALUE_TOO_LONG']);
    expect(problemsOf({ name: 'x', systemLinkId: 'y'.repeat(101), inputType: 30, scope: 10 })).toEqual([
      'systemLinkId:PROPERTY_VALUE_TOO_LONG',
    ]);
  });

  it('keeps integer digits 1-15, decimal digits 0-14 and both together within 15', () => {
    const n = { name: 'n', inputType: 10, scope: 10 } as const;
    expect(problemsOf({ ...n, integerLength: 15, decimalLength: 0 })).toEqual([]);
    expect(problemsOf({ ...n, integerLength: 10, decimalLength: 5 })).toEqual([]);
    expect(problemsOf({ ...n, integerLength: 10, decimalLength: 6 })).toEqual([
      'decimalLength:PROPERTY_DIGITS_EXCEED_LIMIT',
    ]);
    expect(problemsOf({ ...n, integerLength: 0 })).toEqual(['integerLength:PROPERTY_SETTING_OUT_OF_RANGE']);
    expect(problemsOf({ ...n, integerLength: 16 })).toEqual(['integerLength:PROPERTY_SETTING_OUT_OF_RANGE']);
    expect(problemsOf({ ...n, integerLength: 1, decimalLength: 15 })).toEqual([
      'decimalLength:PROPERTY_SETTING_OUT_OF_RANGE',
    ]);
    expect(problemsOf({ ...n, integerLength: 2.5 })).toEqual(['integerLength:PROPERTY_SETTING_OUT_OF_RANGE']);
  });

  it('requires min and max values that fit the digits, with min <= max', () => {
    const n = { name: 'n', inputType: 10, scope: 10, integerLength: 3 } as const;
    expect(problemsOf({ ...n, minValue: 0, maxValue: 0 })).toEqual([]);
    expect(problemsOf({ ...n, minValue: 5, maxValue: 4 })).toEqual(['minValue:PROPERTY_MIN_VALUE_EXCEEDS_MAX']);
    expect(problemsOf({ ...n, maxValue: 1000 })).toEqual(['maxValue:PROPERTY_VALUE_INTEGER_DIGITS']);
    expect(problemsOf({ ...n, minValue: 0.5 })).toEqual(['minValue:PROPERTY_VALUE_NOT_AN_INTEGER']);
  });

  it('keeps string lengths within 0-1000 with min <= max', () => {
    const s = { name: 's', inputType: 20, scope: 10 } as const;
    expect(problemsOf({ ...s, minLength: 3, maxLength: 3 })).toEqual([]);
    expect(problemsOf({ ...s, minLength: 4, maxLength: 3 })).toEqual(['minLength:PROPERTY_MIN_LENGTH_EXCEEDS_MAX']);
    expect(problemsOf({ ...s, maxLength: 0 })).toEqual(['maxLength:PROPERTY_SETTING_OUT_OF_RANGE']);
    expect(problemsOf({ ...s, maxLength: 1001 })).toEqual(['maxLength:PROPERTY_SETTING_OUT_OF_RANGE']);
    expect(problemsOf({ ...s, minLength: -1 })).toEqual(['minLength:PROPERTY_SETTING_OUT_OF_RANGE']);
  });

  it('requires 1 to 100 enum options with distinct, non-empty labels of at most 100 characters', () => {
    expect(checkOptions([]).map((p) => p.code)).toEqual(['PROPERTY_OPTIONS_REQUIRED']);
    expect(problemsOf({ name: 'e', inputType: 40, scope: 10 })).toEqual(['options:PROPERTY_OPTIONS_REQUIRED']);
    const many = Array.from({ length: 101 }, (_, i) => ({ label: `o${i}` }));
    expect(checkOptions(many.slice(0, 100))).toEqual([]);
    expect(checkOptions(many)).toEqual([{ code: 'PROPERTY_OPTION_LIMIT', field: 'options', params: { max: 100 } }]);
    const labels = ['A', ' ', 'A ', 'x'.repeat(101)].map((label) => ({ label }));
    expect(checkOptions(labels).map((p) => `${p.field}:${p.code}`)).toEqual([
      'options/1/label:PROPERTY_VALUE_REQUIRED',
      'options/2/label:PROPERTY_OPTION_LABEL_DUPLICATE',
      'options/3/label:PROPERTY_VALUE_TOO_LONG',
    ]);
  });

  it('lets clients edit only a property that is public to them', () => {
    const d = { name: 'd', inputType: 30, scope: 20 } as const;
    expect(problemsOf({ ...d, publicToClient: true, editableByClient: true })).toEqual([]);
    expect(problemsOf({ ...d, publicToClient: true })).toEqual([]);
    expect(problemsOf({ ...d, editableByClient: true })).toEqual([
      'editableByClient:PROPERTY_EDITABLE_REQUIRES_PUBLIC',
    ]);
  });
});
