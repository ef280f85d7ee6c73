import type { Knex } from 'knex';
import { checkPropertyValue, INPUT_TYPES, SCOPES, type ValueRules } from '../../contract/property-values.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import { definitionOf, type PropertyRow } from '../properties/model.ts';
import { japanToday, type PropertyValueInput } from '../properties/values.ts';

/** Which custom properties a template holds values of: flow templates scope 10, document templates scope 20. */
export type TemplateScope = 'business_flow' | 'document';

/** A value as a template stores it (jsonb), in the shape writePropertyValues takes when the template is applied. */
export interface StoredTemplateValue {
  propertyId: string;
  value: string;
}

const SCOPE = { business_flow: SCOPES.businessFlow, document: SCOPES.document } as const;
const pointer = (index: number, field = 'value') => `/data/attributes/properties/${index}/${field}`;

/**
 * Checks preset property values of a template with the same validator documents and flows use, and returns them
 * normalized; blank values are dropped (the template presets nothing for that property). Every problem comes back
 * in one 422; a definition changed since the client read it is 409 as in writePropertyValues.
 */
export async function checkTemplateValues(
  trx: Knex.Transaction,
  organizationId: string,
  scope: TemplateScope,
  values: PropertyValueInput[],
  now: Date,
): Promise<StoredTemplateValue[]> {
  const rows = (await trx('custom_properties')
    .where({ organization_id: organizationId, scope: SCOPE[scope] })
    .forShare()) as PropertyRow[];
  const options = rows.length
    ? ((await trx('property_options')
        .whereIn(
          'property_id',
          rows.map((r) => r.id),
        )
        .orderBy('position')
        .select('id', 'property_id', 'label')) as { id: string; property_id: string; label: string }[])
    : [];
  const byId = new Map(rows.map((r) => [r.id, r]));
  const problems: FieldError[] = [];
  const stored: StoredTemplateValue[] = [];
  const seen = new Set<string>();
  const today = japanToday(now);
  values.forEach((entry, index) => {
    const row = byId.get(entry.propertyId);
    if (!row) return void problems.push({ code: 'REFERENCE_NOT_FOUND', pointer: pointer(index, 'propertyId') });
    if (seen.has(row.id))
      return void problems.push({ code: 'VALIDATION_FAILED', pointer: pointer(index, 'propertyId') });
    seen.add(row.id);
    if (entry.lockVersion !== undefined && entry.lockVersion !== row.lock_version) {
      throw new AppError('PROPERTY_DEFINITION_CHANGED', { pointer: pointer(index) });
    }
    if (entry.optionsVersion !== undefined && entry.optionsVersion !== row.options_version) {
      throw new AppError('PROPERTY_OPTIONS_CHANGED', { pointer: pointer(index) });
    }
    const own = options.filter((o) => o.property_id === row.id);
    // Blank means "no preset value", so nothing is required here.
    const rules = { ...definitionOf({ row, options: own }), required: false };
    const checked = checkPropertyValue(rules, entry.value, { today });
    if (!checked.ok) {
      problems.push(...checked.problems.map((p) => ({ code: p.code, pointer: pointer(index), params: p.params })));
    } else if (checked.value !== null) stored.push({ propertyId: row.id, value: checked.value });
  });
  if (problems.length > 0) throw AppError.invalid(problems);
  return stored;
}

/** A stored template value as the contract shows it (PropertyValue); values of deleted properties are left out. */
export interface ShownTemplateValue {
  propertyId: string;
  name: string;
  inputType: ValueRules['inputType'];
  value: string;
  labelName: string | null;
}

/** Reads the definitions behind stored template values in one query each, ordered by property name. */
export async function showTemplateValues(
  db: Knex,
  organizationId: string,
  stored: StoredTemplateValue[][],
): Promise<ShownTemplateValue[][]> {
  const ids = [...new Set(stored.flat().map((v) => v.propertyId))];
  if (ids.length === 0) return stored.map(() => []);
  const rows = (await db('custom_properties')
    .where({ organization_id: organizationId })
    .whereIn('id', ids)
    .select('id', 'name', 'input_type')) as { id: string; name: string; input_type: ValueRules['inputType'] }[];
  const optionIds = stored.flat().map((v) => v.value);
  const labels = new Map(
    (
      (await db('property_options')
        .whereIn('property_id', ids)
        .whereIn('id', optionIds.filter(isUuid))
        .select('id', 'label')) as {
        id: string;
        label: string;
      }[]
    ).map((o) => [o.id, o.label]),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return stored.map((values) =>
    values
      .flatMap((v) => {
        const row = byId.get(v.propertyId);
        if (!row) return [];
        const labelName = row.input_type === INPUT_TYPES.enum ? (labels.get(v.value) ?? null) : null;
        return [{ propertyId: row.id, name: row.name, inputType: row.input_type, value: v.value, labelName }];
      })
      .sort((a, b) => a.name.localeCompare(b.name) || a.propertyId.localeCompare(b.propertyId)),
  );
}

function isUuid(text: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text);
}
