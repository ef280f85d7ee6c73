// Custom property rules shared by the server (422 with a pointer) and the web (messages from errors.json).
// Pure TypeScript: no imports, so the browser bundle takes it as it is.

/** Input type codes: 10 number, 20 string, 30 date, 40 enum. */
export const INPUT_TYPES = { number: 10, string: 20, date: 30, enum: 40 } as const;
export type InputType = (typeof INPUT_TYPES)[keyof typeof INPUT_TYPES];
/** Scope codes: 10 business flow, 20 document. */
export const SCOPES = { businessFlow: 10, document: 20 } as const;
export type Scope = (typeof SCOPES)[keyof typeof SCOPES];
/** Number unit codes: 10 none, 20 yen. */
export const NUMBER_UNITS = { none: 10, yen: 20 } as const;
export type NumberUnit = (typeof NUMBER_UNITS)[keyof typeof NUMBER_UNITS];

/** Digits a number may have in total (integer and decimal parts together). */
export const MAX_NUMBER_DIGITS = 15;
/** The longest text value a string property may allow. */
export const MAX_TEXT_LENGTH = 1000;
export const MAX_NAME_LENGTH = 100;
export const MAX_OPTION_LABEL_LENGTH = 100;
export const MAX_OPTIONS = 100;

/** Every problem code this module reports; each is also in the error catalogue and errors.json. */
export type PropertyProblemCode =
  | 'PROPERTY_VALUE_REQUIRED'
  | 'PROPERTY_VALUE_NOT_A_NUMBER'
  | 'PROPERTY_VALUE_NOT_AN_INTEGER'
  | 'PROPERTY_VALUE_TOO_MANY_DIGITS'
  | 'PROPERTY_VALUE_INTEGER_DIGITS'
  | 'PROPERTY_VALUE_DECIMAL_DIGITS'
  | 'PROPERTY_VALUE_COMMA_POSITION'
  | 'PROPERTY_VALUE_BELOW_MIN'
  | 'PROPERTY_VALUE_ABOVE_MAX'
  | 'PROPERTY_VALUE_DATE_FORMAT'
  | 'PROPERTY_VALUE_DATE_NOT_EXIST'
  | 'PROPERTY_VALUE_DATE_BEFORE_TOMORROW'
  | 'PROPERTY_VALUE_NOT_AN_OPTION'
  | 'PROPERTY_VALUE_TOO_SHORT'
  | 'PROPERTY_VALUE_TOO_LONG'
  | 'PROPERTY_VALUE_NEWLINE'
  | 'PROPERTY_VALUE_FULL_WIDTH'
  | 'PROPERTY_SETTING_OUT_OF_RANGE'
  | 'PROPERTY_MIN_LENGTH_EXCEEDS_MAX'
  | 'PROPERTY_DIGITS_EXCEED_LIMIT'
  | 'PROPERTY_MIN_VALUE_EXCEEDS_MAX'
  | 'PROPERTY_OPTIONS_REQUIRED'
  | 'PROPERTY_OPTION_LIMIT'
  | 'PROPERTY_OPTION_LABEL_DUPLICATE'
  | 'PROPERTY_EDITABLE_REQUIRES_PUBLIC';

/** One problem: its code, the attribute path it concerns ('' for the value itself) and message parameters. */
export interface PropertyProblem {
  code: PropertyProblemCode;
  field: string;
  params?: Record<string, string | number>;
}

/** A checked value: the normalized form, or the problems (at most one per value). */
export type Checked<T> = { ok: true; value: T } | { ok: false; problems: PropertyProblem[] };

const fail = <T>(code: PropertyProblemCode, params?: Record<string, string | number>, field = ''): Checked<T> => ({
  ok: false,
  problems: [{ code, field, ...(params ? { params } : {}) }],
});

// ---------------------------------------------------------------------------------------------------------------
// Numbers

export interface NumberRules {
  /** 20 (yen) allows grouping commas at thousands positions; 10 allows no commas. */
  unit?: NumberUnit;
  /** Most digits before the decimal point (default 15). */
  integerLength?: number | null;
  /** Most digits after it; 0 (the default) means integers only. */
  decimalLength?: number | null;
  min?: number | null;
  max?: number | null;
}

/** "0 or more" and "1 or more", the two lower bounds the product uses in places. */
export const NON_NEGATIVE: NumberRules = { min: 0 };
export const POSITIVE: NumberRules = { min: 1 };

const NUMBER_SHAPE = /^(-)?([0-9,]+)(?:\.([0-9]+))?$/;
const YEN_GROUPING = /^[1-9][0-9]{0,2}(,[0-9]{3})+$/;

/**
 * Checks a number typed as text (or given as a JSON number): half-width digits, an optional leading minus and
 * decimal point; commas only in yen values and only at thousands positions ("1,234,567", never "12,34"); integer
 * digits, decimal digits and at most 15 digits in total; then min and max. Normalized: no commas, no leading
 * zeros, decimals as written ("-1,234.50" -> "-1234.50").
 */
export function checkNumber(input: string | number, rules: NumberRules = {}): Checked<string> {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? String(input) : '') : input.trim();
  const match = NUMBER_SHAPE.exec(text);
  if (!match) return fail('PROPERTY_VALUE_NOT_A_NUMBER');
  const [, minus, grouped = '', fraction = ''] = match;
  if (grouped.includes(',')) {
    if (rules.unit !== NUMBER_UNITS.yen) return fail('PROPERTY_VALUE_NOT_A_NUMBER');
    if (!YEN_GROUPING.test(grouped)) return fail('PROPERTY_VALUE_COMMA_POSITION');
  }
  const integer = grouped.replace(/,/g, '').replace(/^0+(?=\d)/, '');
  const decimalLength = rules.decimalLength ?? 0;
  const integerLength = Math.min(rules.integerLength ?? MAX_NUMBER_DIGITS, MAX_NUMBER_DIGITS);
  if (fraction && decimalLength === 0) return fail('PROPERTY_VALUE_NOT_AN_INTEGER');
  if (fraction.length > decimalLength) return fail('PROPERTY_VALUE_DECIMAL_DIGITS', { max: decimalLength });
  if (integer.length > integerLength) return fail('PROPERTY_VALUE_INTEGER_DIGITS', { max: integerLength });
  if (integer.length + fraction.length > MAX_NUMBER_DIGITS) {
    return fail('PROPERTY_VALUE_TOO_MANY_DIGITS', { max: MAX_NUMBER_DIGITS });
  }
  const isZero = /^0*$/.test(integer + fraction);
  const value = `${minus && !isZero ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`;
  const numeric = Number(value);
  if (rules.min != null && numeric < rules.min) return fail('PROPERTY_VALUE_BELOW_MIN', { min: rules.min });
  if (rules.max != null && numeric > rules.max) return fail('PROPERTY_VALUE_ABOVE_MAX', { max: rules.max });
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------------------------
// Dates

export interface DateRules {
  /** Only dates from tomorrow on ("after tomorrow where applicable"); needs `today`. */
  afterTomorrow?: boolean | null;
  /** Today in the caller's calendar, yyyy-MM-dd (the server passes Japan's date). */
  today?: string;
}

const DATE_SHAPE = /^([0-9]{4})([-/])([0-9]{2})\2([0-9]{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The day after a yyyy-MM-dd date, as yyyy-MM-dd. */
export function nextDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const next = new Date(Date.UTC(year, month - 1, day + 1));
  return next.toISOString().slice(0, 10);
}

/**
 * Checks a date written yyyy-MM-dd or yyyy/MM/dd (two-digit month and day, one separator throughout) that exists
 * in the calendar (2026-02-30 does not); normalized to yyyy-MM-dd.
 */
export function checkDate(input: string, rules: DateRules = {}): Checked<string> {
  const match = DATE_SHAPE.exec(input.trim());
  if (!match) return fail('PROPERTY_VALUE_DATE_FORMAT');
  const [, y = '', , m = '', d = ''] = match;
  const [year, month, day] = [Number(y), Number(m), Number(d)];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return fail('PROPERTY_VALUE_DATE_NOT_EXIST');
  }
  const value = `${y}-${m}-${d}`;
  if (rules.afterTomorrow && rules.today) {
    const tomorrow = nextDay(rules.today);
    if (value < tomorrow) return fail('PROPERTY_VALUE_DATE_BEFORE_TOMORROW', { date: tomorrow });
  }
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------------------------
// Text

export interface TextRules {
  minLength?: number | null;
  maxLength?: number | null;
  allowNewline?: boolean | null;
  /** false refuses every full-width character (see isFullWidth). */
  allowFullWidth?: boolean | null;
}

/**
 * Full-width means any character that is not half-width, and half-width is exactly: printable ASCII
 * (U+0020-U+007E), half-width katakana and its punctuation (U+FF61-U+FF9F), tab, CR and LF. So kanji, kana,
 * full-width letters and digits, the ideographic space, accented Latin letters and emoji are all full-width.
 */
export function isFullWidth(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (code === 0x09 || code === 0x0a || code === 0x0d) return false;
  if (code >= 0x20 && code <= 0x7e) return false;
  return !(code >= 0xff61 && code <= 0xff9f);
}

/**
 * Checks a text: newlines (CRLF and CR count as one LF) only when allowed, no full-width character when they are
 * disallowed, then min and max length counted in characters (code points, so an emoji is one).
 */
export function checkText(input: string, rules: TextRules = {}): Checked<string> {
  const value = input.replace(/\r\n?/g, '\n');
  const chars = Array.from(value);
  if (!rules.allowNewline && value.includes('\n')) return fail('PROPERTY_VALUE_NEWLINE');
  if (rules.allowFullWidth === false && chars.some(isFullWidth)) return fail('PROPERTY_VALUE_FULL_WIDTH');
  if (rules.minLength != null && chars.length < rules.minLength) {
    return fail('PROPERTY_VALUE_TOO_SHORT', { min: rules.minLength });
  }
  if (rules.maxLength != null && chars.length > rules.maxLength) {
    return fail('PROPERTY_VALUE_TOO_LONG', { max: rules.maxLength });
  }
  return { ok: true, value };
}

// ---------------------------------------------------------------------------------------------------------------
// Enum

export interface PropertyOption {
  id?: string;
  label: string;
}

/** Checks that a value is the id of one of the options; gives back that option. */
export function checkOption(input: string, options: readonly PropertyOption[]): Checked<PropertyOption> {
  const option = options.find((o) => o.id !== undefined && o.id === input);
  return option ? { ok: true, value: option } : fail('PROPERTY_VALUE_NOT_AN_OPTION');
}

// ---------------------------------------------------------------------------------------------------------------
// A value against its property definition

/** The parts of a custom property definition that decide which values it accepts. */
export interface ValueRules {
  inputType: InputType;
  required: boolean;
  numberUnit: NumberUnit | null;
  integerLength: number | null;
  decimalLength: number | null;
  minValue: number | null;
  maxValue: number | null;
  minLength: number | null;
  maxLength: number | null;
  allowNewline: boolean | null;
  allowFullWidth: boolean | null;
  afterTomorrow: boolean | null;
  options: readonly PropertyOption[];
}

/** A normalized property value: number as a decimal string, date yyyy-MM-dd, text, or an option id. */
export type PropertyValue = string | null;

/**
 * Checks one value against its definition. Empty input (null, undefined, '' or, for numbers and dates, blanks)
 * is no value: PROPERTY_VALUE_REQUIRED when the property is required, else null.
 */
export function checkPropertyValue(
  rules: ValueRules,
  input: string | number | null | undefined,
  context: { today?: string } = {},
): Checked<PropertyValue> {
  const blank =
    input == null || input === '' || (rules.inputType !== INPUT_TYPES.string && String(input).trim() === '');
  if (blank) return rules.required ? fail('PROPERTY_VALUE_REQUIRED') : { ok: true, value: null };
  switch (rules.inputType) {
    case INPUT_TYPES.number:
      return checkNumber(input, {
        unit: rules.numberUnit ?? NUMBER_UNITS.none,
        integerLength: rules.integerLength,
        decimalLength: rules.decimalLength,
        min: rules.minValue,
        max: rules.maxValue,
      });
    case INPUT_TYPES.string:
      return checkText(String(input), rules);
    case INPUT_TYPES.date:
      return typeof input === 'string'
        ? checkDate(input, { afterTomorrow: rules.afterTomorrow, today: context.today })
        : fail('PROPERTY_VALUE_DATE_FORMAT');
    case INPUT_TYPES.enum: {
      const checked = checkOption(String(input), rules.options);
      return checked.ok ? { ok: true, value: checked.value.id ?? null } : checked;
    }
    default:
      return fail('PROPERTY_VALUE_NOT_AN_OPTION');
  }
}
