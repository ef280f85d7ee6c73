import type { Knex } from 'knex';
import type { PropertyDefinition } from '../../contract/property-definition.ts';
import type { InputType, NumberUnit, PropertyProblem, Scope } from '../../contract/property-values.ts';
import { AppError, type ErrorCode, type FieldError } from '../../http/errors.ts';

/** The most custom properties one organization may define (the spec names the limit, not its value). */
export const MAX_PROPERTIES = 100;

export interface PropertyRow {
  id: string;
  organization_id: string;
  system_link_id: string | null;
  name: string;
  input_type: InputType;
  scope: Scope;
  required: boolean;
  number_unit: NumberUnit | null;
  integer_length: number | null;
  decimal_length: number | null;
  min_value: string | number | null;
  max_value: string | number | null;
  min_length: number | null;
  max_length: number | null;
  allow_newline: boolean | null;
  allow_full_width: boolean | null;
  after_tomorrow: boolean | null;
  public_to_client: boolean;
  editable_by_client: boolean;
  options_version: number;
  lock_version: number;
  created_at: Date;
  updated_at: Date;
}

export interface OptionRow {
  id: string;
  property_id: string;
  label: string;
  position: number;
}

/** A definition as stored, with its options in order and which of them values use. */
export interface LoadedProperty {
  row: PropertyRow;
  options: (OptionRow & { inUse: boolean })[];
  inUse: boolean;
}

const numeric = (value: string | number | null) => (value === null ? null : Number(value));

/** The definition the shared validator works on (options: the property's own, in order). */
export function definitionOf({
  row,
  options,
}: {
  row: PropertyRow;
  options: readonly { id: string; label: string }[];
}): PropertyDefinition {
  return {
    name: row.name,
    systemLinkId: row.system_link_id,
    inputType: row.input_type,
    scope: row.scope,
    required: row.required,
    numberUnit: row.number_unit,
    integerLength: row.integer_length,
    decimalLength: row.decimal_length,
    minValue: numeric(row.min_value),
    maxValue: numeric(row.max_value),
    minLength: row.min_length,
    maxLength: row.max_length,
    allowNewline: row.allow_newline,
    allowFullWidth: row.allow_full_width,
    afterTomorrow: row.after_tomorrow,
    publicToClient: row.public_to_client,
    editableByClient: row.editable_by_client,
    options: options.map((o) => ({ id: o.id, label: o.label })),
  };
}

/** The columns of a definition (options live in their own table). */
export function columnsOf(d: PropertyDefinition) {
  return {
    system_link_id: d.systemLinkId,
    name: d.name,
    input_type: d.inputType,
    scope: d.scope,
    required: d.required,
    number_unit: d.numberUnit,
    integer_length: d.integerLength,
    decimal_length: d.decimalLength,
    min_value: d.minValue,
    max_value: d.maxValue,
    min_length: d.minLength,
    max_length: d.maxLength,
    allow_newline: d.allowNewline,
    allow_full_width: d.allowFullWidth,
    after_tomorrow: d.afterTomorrow,
    public_to_client: d.publicToClient,
    editable_by_client: d.editableByClient,
  };
}

/** The JSON:API resource of a property. */
export function toResource(property: LoadedProperty) {
  const { row } = property;
  const { options: _options, ...settings } = definitionOf(property);
  return {
    type: 'Property' as const,
    id: row.id,
    attributes: {
      ...settings,
      options: property.options.map((o) => ({ id: o.id, label: o.label, inUse: o.inUse })),
      optionsVersion: row.options_version,
      inUse: property.inUse,
      lockVersion: row.lock_version,
      createdAt: new Date(row.created_at).toISOString(),
      updatedAt: new Date(row.updated_at).toISOString(),
    },
  };
}

/** Loads properties of one organization with their options and usage (rows already scoped by the caller). */
export async function withOptions(db: Knex | Knex.Transaction, rows: PropertyRow[]): Promise<LoadedProperty[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const options = (await db('property_options')
    .whereIn('property_id', ids)
    .orderBy([{ column: 'position' }, { column: 'id' }])
    .select('id', 'property_id', 'label', 'position')) as OptionRow[];
  const usedProperties = new Set(
    (await db('property_values').whereIn('property_id', ids).distinct('property_id')).map(
      (r: { property_id: string }) => r.property_id,
    ),
  );
  const usedOptions = new Set(
    (await db('property_values').whereIn('property_id', ids).whereNotNull('option_id').distinct('option_id')).map(
      (r: { option_id: string }) => r.option_id,
    ),
  );
  return rows.map((row) => ({
    row,
    inUse: usedProperties.has(row.id),
    options: options.filter((o) => o.property_id === row.id).map((o) => ({ ...o, inUse: usedOptions.has(o.id) })),
  }));
}

/** One property of the organization with options and usage, or NOT_FOUND (also for another organization's id). */
export async function loadProperty(
  db: Knex | Knex.Transaction,
  organizationId: string,
  id: string,
  forUpdate = false,
): Promise<LoadedProperty> {
  const query = db('custom_properties').where({ id, organization_id: organizationId });
  const row = (await (forUpdate ? query.forUpdate() : query).first()) as PropertyRow | undefined;
  if (!row) throw new AppError('NOT_FOUND');
  return (await withOptions(db, [row]))[0]!;
}

/** Turns the shared validator's problems into one 422 with a pointer per problem. */
export function invalid(problems: PropertyProblem[], prefix = '/data/attributes'): AppError {
  return AppError.invalid(
    problems.map((p): FieldError => ({
      code: p.code satisfies ErrorCode,
      pointer: p.field ? `${prefix}/${p.field}` : prefix,
      params: p.params,
    })),
  );
}
