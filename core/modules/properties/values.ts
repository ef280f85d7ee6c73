import type { Knex } from 'knex';
import { checkPropertyValue, INPUT_TYPES, SCOPES } from '../../contract/property-values.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { definitionOf, type PropertyRow, withOptions } from './model.ts';

/** What holds property values: business flows take scope 10 properties, documents scope 20. */
export type PropertyTargetType = 'business_flow' | 'document';

const SCOPE_OF: Record<PropertyTargetType, number> = {
  business_flow: SCOPES.businessFlow,
  document: SCOPES.document,
};

/** One value a client sends; the versions are those of the definition it was entered against, when it has them. */
export interface PropertyValueInput {
  propertyId: string;
  value: string | number | null;
  /** The property's lockVersion the client read: a stale one is 409 PROPERTY_DEFINITION_CHANGED. */
  lockVersion?: number;
  /** The property's optionsVersion the client read: a stale one is 409 PROPERTY_OPTIONS_CHANGED. */
  optionsVersion?: number;
}

/** A stored value as the contract shows it: value (number as decimal text, date yyyy-MM-dd, option id) and label. */
export interface StoredPropertyValue {
  propertyId: string;
  value: string;
  labelName: string | null;
}

/** Today's date in Japan (UTC+9 all year), the calendar of the "from tomorrow" rule. */
export function japanToday(now: Date): string {
  return new Date(now.getTime() + 9 * 3600_000).toISOString().slice(0, 10);
}

/**
 * Validates and writes the values of one business flow or document, inside the caller's transaction (the caller
 * also writes the operation log, with the returned changes). Every value is checked by the shared validator
 * against its definition; all problems come back in one 422, pointers built by `pointer(index)`. A null or empty
 * value deletes the stored one. With `complete`, required properties of the scope missing from `values` are
 * PROPERTY_VALUE_REQUIRED too (pointer `pointer(-1)`, i.e. the list).
 */
export async function writePropertyValues(
  trx: Knex.Transaction,
  input: {
    organizationId: string;
    targetType: PropertyTargetType;
    targetId: string;
    values: PropertyValueInput[];
    now: Date;
    complete?: boolean;
    pointer?: (index: number) => string;
  },
): Promise<{ changed: { propertyId: string; name: string; before: string | null; after: string | null }[] }> {
  const { organizationId, targetType, targetId, values, now } = input;
  const pointer =
    input.pointer ??
    ((i: number) => (i < 0 ? '/data/attributes/properties' : `/data/attributes/properties/${i}/value`));
  // FOR SHARE: a definition cannot change under values being written against it.
  const rows = (await trx('custom_properties')
    .where({ organization_id: organizationId, scope: SCOPE_OF[targetType] })
    .forShare()) as PropertyRow[];
  const properties = new Map((await withOptions(trx, rows)).map((p) => [p.row.id, p]));
  const today = japanToday(now);
  const problems: FieldError[] = [];
  const accepted: { propertyId: string; value: string | null }[] = [];
  values.forEach((entry, index) => {
    const property = properties.get(entry.propertyId);
    if (!property) {
      problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: pointer(index).replace(/\/value$/, '/propertyId') });
      return;
    }
    if (entry.lockVersion !== undefined && entry.lockVersion !== property.row.lock_version) {
      throw new AppError('PROPERTY_DEFINITION_CHANGED', { pointer: pointer(index) });
    }
    if (entry.optionsVersion !== undefined && entry.optionsVersion !== property.row.options_version) {
      throw new AppError('PROPERTY_OPTIONS_CHANGED', { pointer: pointer(index) });
    }
    const checked = checkPropertyValue(definitionOf(property), entry.value, { today });
    if (checked.ok) accepted.push({ propertyId: entry.propertyId, value: checked.value });
    else problems.push(...checked.problems.map((p) => ({ code: p.code, pointer: pointer(index), params: p.params })));
  });
  if (input.complete) {
    const given = new Set(values.map((v) => v.propertyId));
    for (const property of properties.values()) {
      if (property.row.required && !given.has(property.row.id)) {
        problems.push({ code: 'PROPERTY_VALUE_REQUIRED', pointer: pointer(-1), params: { name: property.row.name } });
      }
    }
  }
  if (problems.length > 0) throw AppError.invalid(problems);

  const before = new Map(
    (await readPropertyValues(trx, organizationId, targetType, [targetId]))
      .get(targetId)
      ?.map((v) => [v.propertyId, v.value]),
  );
  const changed = [];
  for (const { propertyId, value } of accepted) {
    const property = properties.get(propertyId)!;
    const key = { property_id: propertyId, target_type: targetType, target_id: targetId };
    if ((before.get(propertyId) ?? null) !== value) {
      changed.push({ propertyId, name: property.row.name, before: before.get(propertyId) ?? null, after: value });
    }
    if (value === null) {
      await trx('property_values').where(key).delete();
      continue;
    }
    const type = property.row.input_type;
    const columns = {
      text_value: type === INPUT_TYPES.string ? value : null,
      number_value: type === INPUT_TYPES.number ? value : null,
      date_value: type === INPUT_TYPES.date ? value : null,
      option_id: type === INPUT_TYPES.enum ? value : null,
      updated_at: now,
    };
    await trx('property_values')
      .insert({ ...key, organization_id: organizationId, ...columns, created_at: now })
      .onConflict(['property_id', 'target_type', 'target_id'])
      .merge(columns);
  }
  return { changed };
}

/** A stored value joined with its property (and option label), as propertyValueQuery selects it. */
export interface PropertyValueRow {
  target_id: string;
  property_id: string;
  /** The property's organization. */
  organization_id: string;
  name: string;
  input_type: number;
  editable_by_client: boolean;
  text_value: string | null;
  option_id: string | null;
  label: string | null;
  number_text: string | null;
  date_text: string | null;
}

/**
 * The stored values of one target type joined with their properties and option labels, in property name order
 * (rows: PropertyValueRow); callers narrow it to their targets and to the properties the caller may see.
 */
export function propertyValueQuery(db: Knex | Knex.Transaction, targetType: PropertyTargetType) {
  return db('property_values as v')
    .join('custom_properties as p', 'p.id', 'v.property_id')
    .leftJoin('property_options as o', 'o.id', 'v.option_id')
    .where('v.target_type', targetType)
    .orderBy([{ column: 'p.name' }, { column: 'p.id' }])
    .select(
      'v.target_id',
      'v.property_id',
      'p.organization_id',
      'p.name',
      'p.input_type',
      'p.editable_by_client',
      'v.text_value',
      'v.option_id',
      'o.label',
      db.raw('v.number_value::text as number_text'),
      db.raw(`to_char(v.date_value, 'YYYY-MM-DD') as date_text`),
    );
}

/** A stored value as the contract carries it: text, number as decimal text, date yyyy-MM-dd, or option id. */
export function storedValueText(row: PropertyValueRow): string {
  return row.text_value ?? row.number_text ?? row.date_text ?? row.option_id ?? '';
}

/** A value of a business flow or document as a caller sees it, with whether the caller may change it. */
export interface ShownPropertyValue {
  propertyId: string;
  name: string;
  inputType: number;
  value: string;
  labelName: string | null;
  editable: boolean;
}

export function shownPropertyValue(row: PropertyValueRow, editable: boolean): ShownPropertyValue {
  return {
    propertyId: row.property_id,
    name: row.name,
    inputType: row.input_type,
    value: storedValueText(row),
    labelName: row.label,
    editable,
  };
}

/** The stored values of some targets of one organization, per target id, in property name order. */
export async function readPropertyValues(
  db: Knex | Knex.Transaction,
  organizationId: string,
  targetType: PropertyTargetType,
  targetIds: string[],
): Promise<Map<string, StoredPropertyValue[]>> {
  const rows = (await propertyValueQuery(db, targetType)
    .where('v.organization_id', organizationId)
    .whereIn('v.target_id', targetIds)) as PropertyValueRow[];
  const result = new Map<string, StoredPropertyValue[]>();
  for (const row of rows) {
    const list = result.get(row.target_id) ?? [];
    list.push({ propertyId: row.property_id, value: storedValueText(row), labelName: row.label });
    result.set(row.target_id, list);
  }
  return result;
}
