// Custom property definitions: defaults and the rules a definition itself must follow. Pure TypeScript, shared by
// the server and the web like property-values.ts.
import {
  checkNumber,
  INPUT_TYPES,
  type InputType,
  MAX_NAME_LENGTH,
  MAX_NUMBER_DIGITS,
  MAX_OPTION_LABEL_LENGTH,
  MAX_OPTIONS,
  MAX_TEXT_LENGTH,
  NUMBER_UNITS,
  type NumberUnit,
  type PropertyOption,
  type PropertyProblem,
  type Scope,
  type ValueRules,
} from './property-values.ts';

export const MAX_SYSTEM_LINK_ID_LENGTH = 100;

/** A definition as a client sends it: only name, input type and scope are needed. */
export interface PropertyDefinitionInput {
  name: string;
  systemLinkId?: string | null;
  inputType: InputType;
  scope: Scope;
  required?: boolean;
  numberUnit?: NumberUnit | null;
  integerLength?: number | null;
  decimalLength?: number | null;
  minValue?: number | null;
  maxValue?: number | null;
  minLength?: number | null;
  maxLength?: number | null;
  allowNewline?: boolean | null;
  allowFullWidth?: boolean | null;
  afterTomorrow?: boolean | null;
  publicToClient?: boolean;
  editableByClient?: boolean;
  options?: PropertyOption[];
}

/** A complete definition: settings of other input types are null, every setting of its own type is set. */
export interface PropertyDefinition extends ValueRules {
  name: string;
  systemLinkId: string | null;
  scope: Scope;
  publicToClient: boolean;
  editableByClient: boolean;
  options: PropertyOption[];
}

/**
 * Fills defaults and clears what does not apply to the input type: numbers default to no unit, integers (0
 * decimals) with up to 15 - decimalLength integer digits; strings to 0..1000 characters, one line, full-width
 * allowed; dates to any date. Names, labels and the system link id are trimmed ('' id -> null).
 */
export function normalizeDefinition(input: PropertyDefinitionInput): PropertyDefinition {
  const type = input.inputType;
  const is = (t: InputType) => type === t;
  const decimalLength = is(INPUT_TYPES.number) ? (input.decimalLength ?? 0) : null;
  return {
    name: input.name.trim(),
    systemLinkId: input.systemLinkId?.trim() || null,
    inputType: type,
    scope: input.scope,
    required: input.required ?? false,
    numberUnit: is(INPUT_TYPES.number) ? (input.numberUnit ?? NUMBER_UNITS.none) : null,
    integerLength: is(INPUT_TYPES.number) ? (input.integerLength ?? MAX_NUMBER_DIGITS - (decimalLength ?? 0)) : null,
    decimalLength,
    minValue: is(INPUT_TYPES.number) ? (input.minValue ?? null) : null,
    maxValue: is(INPUT_TYPES.number) ? (input.maxValue ?? null) : null,
    minLength: is(INPUT_TYPES.string) ? (input.minLength ?? 0) : null,
    maxLength: is(INPUT_TYPES.string) ? (input.maxLength ?? MAX_TEXT_LENGTH) : null,
    allowNewline: is(INPUT_TYPES.string) ? (input.allowNewline ?? false) : null,
    allowFullWidth: is(INPUT_TYPES.string) ? (input.allowFullWidth ?? true) : null,
    afterTomorrow: is(INPUT_TYPES.date) ? (input.afterTomorrow ?? false) : null,
    publicToClient: input.publicToClient ?? false,
    editableByClient: input.editableByClient ?? false,
    options: is(INPUT_TYPES.enum)
      ? (input.options ?? []).map((o) => ({ ...(o.id ? { id: o.id } : {}), label: o.label.trim() }))
      : [],
  };
}

function inRange(value: number | null, min: number, max: number): boolean {
  return value !== null && Number.isInteger(value) && value >= min && value <= max;
}

/** Checks enum options: at least one, at most 100, each label given, not too long and not repeated. */
export function checkOptions(options: readonly PropertyOption[]): PropertyProblem[] {
  if (options.length === 0) return [{ code: 'PROPERTY_OPTIONS_REQUIRED', field: 'options' }];
  if (options.length > MAX_OPTIONS) {
    return [{ code: 'PROPERTY_OPTION_LIMIT', field: 'options', params: { max: MAX_OPTIONS } }];
  }
  const problems: PropertyProblem[] = [];
  const seen = new Set<string>();
  options.forEach((option, index) => {
    const field = `options/${index}/label`;
    const label = option.label.trim();
    if (label === '') problems.push({ code: 'PROPERTY_VALUE_REQUIRED', field });
    else if (Array.from(label).length > MAX_OPTION_LABEL_LENGTH) {
      problems.push({ code: 'PROPERTY_VALUE_TOO_LONG', field, params: { max: MAX_OPTION_LABEL_LENGTH } });
    } else if (seen.has(label)) problems.push({ code: 'PROPERTY_OPTION_LABEL_DUPLICATE', field });
    seen.add(label);
  });
  return problems;
}

function checkNumberSettings(d: PropertyDefinition): PropertyProblem[] {
  const problems: PropertyProblem[] = [];
  const range = (field: string, min: number, max: number) =>
    problems.push({ code: 'PROPERTY_SETTING_OUT_OF_RANGE', field, params: { min, max } });
  if (!inRange(d.integerLength, 1, MAX_NUMBER_DIGITS)) range('integerLength', 1, MAX_NUMBER_DIGITS);
  if (!inRange(d.decimalLength, 0, MAX_NUMBER_DIGITS - 1)) range('decimalLength', 0, MAX_NUMBER_DIGITS - 1);
  if (problems.length > 0) return problems;
  if (d.integerLength! + d.decimalLength! > MAX_NUMBER_DIGITS) {
    return [{ code: 'PROPERTY_DIGITS_EXCEED_LIMIT', field: 'decimalLength', params: { max: MAX_NUMBER_DIGITS } }];
  }
  const digits = { integerLength: d.integerLength, decimalLength: d.decimalLength };
  for (const field of ['minValue', 'maxValue'] as const) {
    const value = d[field];
    if (value === null) continue;
    const checked = checkNumber(value, digits);
    if (!checked.ok) problems.push(...checked.problems.map((p) => ({ ...p, field })));
  }
  if (problems.length === 0 && d.minValue !== null && d.maxValue !== null && d.minValue > d.maxValue) {
    problems.push({ code: 'PROPERTY_MIN_VALUE_EXCEEDS_MAX', field: 'minValue' });
  }
  return problems;
}

function checkStringSettings(d: PropertyDefinition): PropertyProblem[] {
  const problems: PropertyProblem[] = [];
  if (!inRange(d.maxLength, 1, MAX_TEXT_LENGTH)) {
    problems.push({
      code: 'PROPERTY_SETTING_OUT_OF_RANGE',
      field: 'maxLength',
      params: { min: 1, max: MAX_TEXT_LENGTH },
    });
  }
  if (!inRange(d.minLength, 0, MAX_TEXT_LENGTH)) {
    problems.push({
      code: 'PROPERTY_SETTING_OUT_OF_RANGE',
      field: 'minLength',
      params: { min: 0, max: MAX_TEXT_LENGTH },
    });
  }
  if (problems.length === 0 && d.minLength! > d.maxLength!) {
    problems.push({ code: 'PROPERTY_MIN_LENGTH_EXCEEDS_MAX', field: 'minLength' });
  }
  return problems;
}

/**
 * Checks a normalized definition: name given and at most 100 characters; system link id at most 100; number digit
 * settings within 15 in total with min <= max fitting them; string lengths 0 <= min <= max <= 1000; enum options
 * (checkOptions); editable by client only when public to client.
 */
export function checkDefinition(d: PropertyDefinition): PropertyProblem[] {
  const problems: PropertyProblem[] = [];
  if (d.name === '') problems.push({ code: 'PROPERTY_VALUE_REQUIRED', field: 'name' });
  else if (Array.from(d.name).length > MAX_NAME_LENGTH) {
    problems.push({ code: 'PROPERTY_VALUE_TOO_LONG', field: 'name', params: { max: MAX_NAME_LENGTH } });
  }
  if (d.systemLinkId !== null && Array.from(d.systemLinkId).length > MAX_SYSTEM_LINK_ID_LENGTH) {
    problems.push({
      code: 'PROPERTY_VALUE_TOO_LONG',
      field: 'systemLinkId',
      params: { max: MAX_SYSTEM_LINK_ID_LENGTH },
    });
  }
  if (d.inputType === INPUT_TYPES.number) problems.push(...checkNumberSettings(d));
  if (d.inputType === INPUT_TYPES.string) problems.push(...checkStringSettings(d));
  if (d.inputType === INPUT_TYPES.enum) problems.push(...checkOptions(d.options));
  if (d.editableByClient && !d.publicToClient) {
    problems.push({ code: 'PROPERTY_EDITABLE_REQUIRES_PUBLIC', field: 'editableByClient' });
  }
  return problems;
}
