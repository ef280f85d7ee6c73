import {
  checkPropertyValue,
  type InputType,
  type NumberUnit,
  type PropertyProblem,
  type ValueRules,
} from '../../../../core/contract/property-values.ts';
import type { ErrorCode } from '../../api/errors.ts';

/** The parts of a property definition the value inputs need (a Property resource's id and attributes). */
export interface ValueDefinition {
  id: string;
  attributes: Omit<ValueRules, 'inputType' | 'numberUnit'> & {
    name: string;
    inputType: number;
    numberUnit: number | null;
    lockVersion?: number;
    optionsVersion?: number;
  };
}

/** A value problem to show next to its input: the code and its message parameters. */
export interface ValueProblem {
  code: ErrorCode | PropertyProblem['code'];
  params?: Record<string, string | number>;
}

/** Today in Japan, the calendar the server's "from tomorrow" rule uses. */
export const japanToday = (now = Date.now()) => new Date(now + 9 * 3600_000).toISOString().slice(0, 10);

export function rulesOf(definition: ValueDefinition): ValueRules {
  const a = definition.attributes;
  return { ...a, inputType: a.inputType as InputType, numberUnit: a.numberUnit as NumberUnit | null };
}

/** Checks every value with the shared validator (the server runs the same one); problems by property id. */
export function checkValues(
  definitions: readonly ValueDefinition[],
  values: Record<string, string>,
  today = japanToday(),
): Record<string, ValueProblem[]> {
  const problems: Record<string, ValueProblem[]> = {};
  for (const definition of definitions) {
    const result = checkPropertyValue(rulesOf(definition), values[definition.id] ?? '', { today });
    if (!result.ok) {
      problems[definition.id] = result.problems.map((p) => ({
        code: p.code,
        ...(p.params ? { params: p.params } : {}),
      }));
    }
  }
  return problems;
}

/**
 * The PropertyValueInput list a request sends: every definition's value (blank as null, so a cleared value is
 * removed), with the definition's versions so a definition changed meanwhile is a 409.
 */
export function valueInputs(definitions: readonly ValueDefinition[], values: Record<string, string>) {
  return definitions.map((definition) => {
    const value = values[definition.id] ?? '';
    const { lockVersion, optionsVersion } = definition.attributes;
    return {
      propertyId: definition.id,
      value: value.trim() === '' ? null : value,
      ...(lockVersion !== undefined ? { lockVersion } : {}),
      ...(optionsVersion !== undefined ? { optionsVersion } : {}),
    };
  });
}

/**
 * A refusal's value problems by property id: pointers `/data/attributes/properties/<i>/...` name the i-th value
 * sent (`propertyIds` in the order sent).
 */
export function serverValueProblems(
  errors: { code: ErrorCode; source?: { pointer: string } }[],
  propertyIds: readonly string[],
): Record<string, ValueProblem[]> {
  const problems: Record<string, ValueProblem[]> = {};
  for (const error of errors) {
    const match = /^\/data\/attributes\/properties\/(\d+)/.exec(error.source?.pointer ?? '');
    const id = match ? propertyIds[Number(match[1])] : undefined;
    if (id) (problems[id] ??= []).push({ code: error.code });
  }
  return problems;
}

/** What a stored value tells of its property (a partner cannot read the owner's definitions). */
interface StoredValue {
  propertyId: string;
  name: string;
  inputType: number;
  value: string | null;
  labelName?: string | null;
}

/**
 * The definitions a flow's edit form shows: on the owner's side every flow-scope definition of the organization (so
 * an empty value can be filled in); on a partner's side only the values it was shown, with rules the server checks
 * (an enum shows its current choice only).
 */
export function editableDefinitions(
  stored: readonly StoredValue[],
  own: readonly ValueDefinition[],
  ownerSide: boolean,
): ValueDefinition[] {
  if (ownerSide) return [...own];
  return stored.map((p) => ({
    id: p.propertyId,
    attributes: {
      name: p.name,
      inputType: p.inputType,
      required: false,
      numberUnit: 20,
      integerLength: null,
      decimalLength: 14,
      minValue: null,
      maxValue: null,
      minLength: null,
      maxLength: null,
      allowNewline: null,
      allowFullWidth: null,
      afterTomorrow: null,
      options: p.value ? [{ id: p.value, label: p.labelName ?? p.value }] : [],
    },
  }));
}
