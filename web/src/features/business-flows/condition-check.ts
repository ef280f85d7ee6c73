import {
  checkDate,
  checkNumber,
  INPUT_TYPES,
  NUMBER_UNITS,
  type PropertyProblemCode,
} from '../../../../core/contract/property-values.ts';
import type { PropertyCondition } from './search-params.ts';

/** What a condition needs to know of its property. */
export interface ConditionProperty {
  id: string;
  inputType: number;
  decimalLength?: number | null;
}

export type ConditionProblemCode = PropertyProblemCode | 'SEARCH_RANGE_INVALID' | 'SEARCH_PROPERTY_INVALID';
export interface ConditionProblem {
  /** The part of the condition it concerns (the control to point at). */
  part: 'property' | 'from' | 'to' | 'text' | 'options';
  code: ConditionProblemCode;
}

/** The condition kind that fits a property's input type: text contains, number/date range, enum options. */
export function conditionKindOf(inputType: number): PropertyCondition['kind'] {
  if (inputType === INPUT_TYPES.number || inputType === INPUT_TYPES.date) return 'range';
  if (inputType === INPUT_TYPES.enum) return 'options';
  return 'contains';
}

/** A new, empty condition on a property. */
export function newCondition(property: ConditionProperty): PropertyCondition {
  const kind = conditionKindOf(property.inputType);
  if (kind === 'range') return { propertyId: property.id, kind, from: '', to: '' };
  if (kind === 'options') return { propertyId: property.id, kind, optionIds: [] };
  return { propertyId: property.id, kind, text: '' };
}

/** A bound as the server compares it (numbers without commas, dates yyyy-MM-dd), or a problem. */
function bound(
  value: string,
  property: ConditionProperty,
): { ok: true; value: string } | { ok: false; code: PropertyProblemCode } {
  const checked =
    property.inputType === INPUT_TYPES.date
      ? checkDate(value)
      : checkNumber(value, { unit: NUMBER_UNITS.yen, decimalLength: property.decimalLength ?? 14 });
  return checked.ok ? { ok: true, value: checked.value } : { ok: false, code: checked.problems[0]!.code };
}

/**
 * Checks a condition against its property before the search is sent: the property must exist and fit the kind,
 * each bound must be a number (or date) and from must not be after to.
 */
export function checkCondition(
  condition: PropertyCondition,
  property: ConditionProperty | undefined,
): ConditionProblem[] {
  if (!property || conditionKindOf(property.inputType) !== condition.kind) {
    return [{ part: 'property', code: 'SEARCH_PROPERTY_INVALID' }];
  }
  if (condition.kind !== 'range') return [];
  const problems: ConditionProblem[] = [];
  const checked: Partial<Record<'from' | 'to', string>> = {};
  for (const side of ['from', 'to'] as const) {
    const value = condition[side].trim();
    if (value === '') continue;
    const result = bound(value, property);
    if (result.ok) checked[side] = result.value;
    else problems.push({ part: side, code: result.code });
  }
  if (checked.from !== undefined && checked.to !== undefined && isAfter(checked.from, checked.to, property)) {
    problems.push({ part: 'to', code: 'SEARCH_RANGE_INVALID' });
  }
  return problems;
}

function isAfter(from: string, to: string, property: ConditionProperty): boolean {
  return property.inputType === INPUT_TYPES.date ? from > to : Number(from) > Number(to);
}

/** A range condition's bounds as the server compares them (commas removed); other conditions unchanged. */
export function normalizeCondition(
  condition: PropertyCondition,
  property: ConditionProperty | undefined,
): PropertyCondition {
  if (condition.kind !== 'range' || !property) return condition;
  const clean = (value: string) => {
    if (value.trim() === '') return '';
    const result = bound(value.trim(), property);
    return result.ok ? result.value : value.trim();
  };
  return { ...condition, from: clean(condition.from), to: clean(condition.to) };
}
