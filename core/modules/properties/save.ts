import type { Knex } from 'knex';
import type { PropertyDefinition } from '../../contract/property-definition.ts';
import { AppError, type FieldError } from '../../http/errors.ts';
import type { LoadedProperty } from './model.ts';

/** Serialises property changes per organization, so the limit count and the uniqueness checks cannot race. */
export async function lockProperties(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`custom_properties:${organizationId}`]);
}

/** 422 PROPERTY_NAME_TAKEN / SYSTEM_LINK_ID_TAKEN when another property of the organization has them. */
export async function assertUnique(
  trx: Knex.Transaction,
  organizationId: string,
  definition: PropertyDefinition,
  exceptId?: string,
): Promise<void> {
  const others = () => {
    const q = trx('custom_properties').where({ organization_id: organizationId });
    return exceptId ? q.whereNot({ id: exceptId }) : q;
  };
  const problems: FieldError[] = [];
  if (await others().where({ name: definition.name }).first('id')) {
    problems.push({ code: 'PROPERTY_NAME_TAKEN', pointer: '/data/attributes/name' });
  }
  if (definition.systemLinkId && (await others().where({ system_link_id: definition.systemLinkId }).first('id'))) {
    problems.push({ code: 'SYSTEM_LINK_ID_TAKEN', pointer: '/data/attributes/systemLinkId' });
  }
  if (problems.length > 0) throw AppError.invalid(problems);
}

export interface OptionChanges {
  added: string[];
  renamed: { from: string; to: string }[];
  removed: string[];
  reordered: boolean;
}

export const hasOptionChanges = (c: OptionChanges) =>
  c.added.length + c.renamed.length + c.removed.length > 0 || c.reordered;

/**
 * Makes the stored options exactly the given list, in its order: an entry with an id keeps (and may rename) that
 * option, one without is new, a stored option missing from the list is deleted unless a value uses it (409
 * PROPERTY_OPTION_IN_USE). Labels are already checked by the definition validator.
 */
export async function replaceOptions(
  trx: Knex.Transaction,
  property: LoadedProperty,
  list: { id?: string; label: string }[],
  now: Date,
): Promise<OptionChanges> {
  const stored = new Map(property.options.map((o) => [o.id, o]));
  const seen = new Set<string>();
  const bad: FieldError[] = [];
  list.forEach((entry, index) => {
    if (entry.id === undefined) return;
    if (!stored.has(entry.id) || seen.has(entry.id)) {
      bad.push({ code: 'VALIDATION_FAILED', pointer: `/data/attributes/options/${index}/id`, detail: 'unknown id' });
    }
    seen.add(entry.id);
  });
  if (bad.length > 0) throw AppError.invalid(bad);
  const removed = property.options.filter((o) => !seen.has(o.id));
  const blocked = removed.find((o) => o.inUse);
  if (blocked) {
    throw new AppError('PROPERTY_OPTION_IN_USE', {
      pointer: '/data/attributes/options',
      params: { label: blocked.label },
    });
  }
  const changes: OptionChanges = { added: [], renamed: [], removed: removed.map((o) => o.label), reordered: false };
  if (removed.length > 0)
    await trx('property_options')
      .whereIn(
        'id',
        removed.map((o) => o.id),
      )
      .delete();
  const keptOrder = property.options.filter((o) => seen.has(o.id)).map((o) => o.id);
  changes.reordered = list.filter((e) => e.id).some((e, i) => e.id !== keptOrder[i]);
  for (const [position, entry] of list.entries()) {
    const old = entry.id ? stored.get(entry.id) : undefined;
    if (!old) {
      await trx('property_options').insert({
        organization_id: property.row.organization_id,
        property_id: property.row.id,
        label: entry.label,
        position,
        created_at: now,
      });
      changes.added.push(entry.label);
      continue;
    }
    if (old.label !== entry.label) changes.renamed.push({ from: old.label, to: entry.label });
    if (old.label !== entry.label || old.position !== position) {
      await trx('property_options').where({ id: old.id }).update({ label: entry.label, position });
    }
  }
  return changes;
}
