import {
  checkDefinition,
  normalizeDefinition,
  type PropertyDefinition,
} from '../../../../core/contract/property-definition.ts';
import {
  checkNumber,
  INPUT_TYPES,
  type InputType,
  NUMBER_UNITS,
  type NumberUnit,
  type PropertyProblemCode,
  type Scope,
  SCOPES,
} from '../../../../core/contract/property-values.ts';
import type { ErrorCode } from '../../api/errors.ts';
import type { Property, PropertyAttributes } from './api/list-properties.ts';

/** One row of the options editor; `key` is stable for React, `id` is the stored option's (none for a new one). */
export interface OptionRow {
  key: string;
  id?: string;
  label: string;
  inUse: boolean;
}

/** What the form holds: numbers as typed text, so a half-typed value stays visible. */
export interface PropertyForm {
  name: string;
  systemLinkId: string;
  inputType: InputType;
  scope: Scope;
  required: boolean;
  numberUnit: NumberUnit;
  integerLength: string;
  decimalLength: string;
  minValue: string;
  maxValue: string;
  minLength: string;
  maxLength: string;
  allowNewline: boolean;
  allowFullWidth: boolean;
  afterTomorrow: boolean;
  publicToClient: boolean;
  editableByClient: boolean;
  options: OptionRow[];
}

/** A problem of a field, by the attribute path the server's pointers use (`name`, `options/2/label`). */
export interface FieldProblem {
  code: ErrorCode | PropertyProblemCode;
  params?: Record<string, string | number>;
  /** The server's own rendering (it knows parameters the client may not). */
  messages?: { ja: string; en: string };
}
export type FieldProblems = Record<string, FieldProblem[]>;

let nextKey = 0;
/** A fresh key for an options editor row. */
export const newOptionKey = () => `option-${++nextKey}`;

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

/** The form of a new property: a one-line text of a business flow, not shown to clients. */
export function emptyForm(): PropertyForm {
  return formOf(normalizeDefinition({ name: '', inputType: INPUT_TYPES.string, scope: SCOPES.businessFlow }));
}

/** The form of a stored property (or of a normalized definition). */
export function formOf(source: Property | PropertyDefinition): PropertyForm {
  const a = 'attributes' in source ? (source.attributes as PropertyAttributes) : source;
  const number = normalizeDefinition({ name: '', inputType: INPUT_TYPES.number, scope: SCOPES.businessFlow });
  const string = normalizeDefinition({ name: '', inputType: INPUT_TYPES.string, scope: SCOPES.businessFlow });
  return {
    name: a.name,
    systemLinkId: a.systemLinkId ?? '',
    inputType: a.inputType as InputType,
    scope: a.scope as Scope,
    required: a.required,
    numberUnit: (a.numberUnit ?? NUMBER_UNITS.none) as NumberUnit,
    integerLength: text(a.integerLength ?? number.integerLength),
    decimalLength: text(a.decimalLength ?? number.decimalLength),
    minValue: text(a.minValue),
    maxValue: text(a.maxValue),
    minLength: text(a.minLength ?? string.minLength),
    maxLength: text(a.maxLength ?? string.maxLength),
    allowNewline: a.allowNewline ?? false,
    allowFullWidth: a.allowFullWidth ?? true,
    afterTomorrow: a.afterTomorrow ?? false,
    publicToClient: a.publicToClient,
    editableByClient: a.editableByClient,
    options: a.options.map((o) => ({
      key: newOptionKey(),
      ...(o.id ? { id: o.id } : {}),
      label: o.label,
      inUse: 'inUse' in o ? Boolean(o.inUse) : false,
    })),
  };
}

/** A whole number typed in a setting field; anything else becomes NaN, which the definition check refuses. */
const wholeNumber = (value: string) =>
  value.trim() === '' ? null : /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;

/** The definition the form describes, normalized as the server will store it. */
export function definitionOf(form: PropertyForm): PropertyDefinition {
  const bound = (value: string) => {
    const checked = value.trim() === '' ? null : checkNumber(value, { decimalLength: 14 });
    return checked === null ? null : checked.ok ? Number(checked.value) : NaN;
  };
  return normalizeDefinition({
    ...form,
    integerLength: wholeNumber(form.integerLength),
    decimalLength: wholeNumber(form.decimalLength),
    minValue: bound(form.minValue),
    maxValue: bound(form.maxValue),
    minLength: wholeNumber(form.minLength),
    maxLength: wholeNumber(form.maxLength),
    // Rows get their key as id, so a preview can pick a new option; attributesOf sends only stored ids.
    options: form.options.map((o) => ({ id: o.id ?? o.key, label: o.label })),
  });
}

/**
 * Checks the form with the shared definition validator (the server runs the same one); a min or max value that is
 * not a number is reported before its digits are.
 */
export function validateForm(form: PropertyForm): FieldProblems {
  const problems: FieldProblems = {};
  const add = (field: string, problem: FieldProblem) => (problems[field] ??= []).push(problem);
  if (form.inputType === INPUT_TYPES.number) {
    for (const field of ['minValue', 'maxValue'] as const) {
      const value = form[field];
      if (value.trim() === '') continue;
      const checked = checkNumber(value, { decimalLength: 14 });
      if (!checked.ok) add(field, { code: checked.problems[0]!.code });
    }
  }
  for (const problem of checkDefinition(definitionOf(form))) {
    if (problems[problem.field]) continue;
    add(problem.field, { code: problem.code, ...(problem.params ? { params: problem.params } : {}) });
  }
  return problems;
}

/** The settings as request attributes (everything but options and versions). */
function settingsOf(form: PropertyForm) {
  const { options: _options, ...settings } = definitionOf(form);
  return settings;
}

/** The attributes of createProperty. */
export function createAttributes(form: PropertyForm) {
  const options = form.inputType === INPUT_TYPES.enum ? form.options.map((o) => ({ label: o.label.trim() })) : [];
  return { ...settingsOf(form), options };
}

/** The attributes of updateProperty; options (with their version) only when the user changed them. */
export function updateAttributes(
  form: PropertyForm,
  versions: { lockVersion: number; optionsVersion: number },
  optionsChanged: boolean,
) {
  const sendOptions = optionsChanged && form.inputType === INPUT_TYPES.enum;
  return {
    ...settingsOf(form),
    lockVersion: versions.lockVersion,
    ...(sendOptions
      ? {
          optionsVersion: versions.optionsVersion,
          options: form.options.map((o) => ({ ...(o.id ? { id: o.id } : {}), label: o.label.trim() })),
        }
      : {}),
  };
}

/** True when the rows differ from the stored options in labels, order or number. */
export function optionsChanged(form: PropertyForm, stored: { id: string; label: string }[]): boolean {
  if (form.options.length !== stored.length) return true;
  return form.options.some((row, i) => row.id !== stored[i]!.id || row.label.trim() !== stored[i]!.label);
}

/** A 422's field errors by attribute path (`/data/attributes/options/1/label` -> `options/1/label`). */
export function serverProblems(
  errors: { code: ErrorCode; source?: { pointer: string }; meta?: { messages?: { ja: string; en: string } } }[],
): FieldProblems {
  const problems: FieldProblems = {};
  for (const error of errors) {
    const pointer = error.source?.pointer ?? '';
    if (!pointer.startsWith('/data/attributes/')) continue;
    const messages = error.meta?.messages;
    (problems[pointer.slice('/data/attributes/'.length)] ??= []).push({
      code: error.code,
      ...(messages ? { messages } : {}),
    });
  }
  return problems;
}
