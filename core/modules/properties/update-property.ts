import {
  checkDefinition,
  normalizeDefinition,
  type PropertyDefinitionInput,
} from '../../contract/property-definition.ts';
import { INPUT_TYPES } from '../../contract/property-values.ts';
import type { ApiRouter } from '../../contract/router.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { PROPERTY_WRITE_GATE } from './gate.ts';
import { columnsOf, definitionOf, invalid, loadProperty, toResource } from './model.ts';
import { assertUnique, hasOptionChanges, lockProperties, type OptionChanges, replaceOptions } from './save.ts';

/** The settings that differ, as {column: [before, after]} for the operation log. */
function settingChanges(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [key, value] of Object.entries(after)) {
    if (before[key] !== value) changes[key] = [before[key], value];
  }
  return changes;
}

export function updatePropertyRoute(api: ApiRouter, { knex, oplog, clock }: CoreDeps): void {
  api.operation('updateProperty', PROPERTY_WRITE_GATE, async ({ principal, params, body, req }) => {
    const organizationId = principal.organizationId;
    const { lockVersion, options, optionsVersion, ...patch } = body.data.attributes;
    if (options && optionsVersion === undefined) {
      throw AppError.invalid([{ code: 'VALIDATION_FAILED', pointer: '/data/attributes/optionsVersion' }]);
    }
    await knex.transaction(async (trx) => {
      await lockProperties(trx, organizationId);
      const current = await loadProperty(trx, organizationId, params.propertyId, true);
      assertLockVersion(current.row, lockVersion);
      if (options && current.row.options_version !== optionsVersion) {
        throw new AppError('PROPERTY_OPTIONS_CHANGED', { pointer: '/data/attributes/options' });
      }
      const before = definitionOf(current);
      const definition = normalizeDefinition({
        ...before,
        ...patch,
        options: options ?? before.options,
      } as PropertyDefinitionInput);
      if (current.inUse && definition.inputType !== before.inputType) {
        throw new AppError('PROPERTY_IN_USE', { pointer: '/data/attributes/inputType' });
      }
      if (current.inUse && definition.scope !== before.scope) {
        throw new AppError('PROPERTY_IN_USE', { pointer: '/data/attributes/scope' });
      }
      const problems = checkDefinition(definition);
      if (problems.length > 0) throw invalid(problems);
      await assertUnique(trx, organizationId, definition, current.row.id);

      const now = clock.now();
      const settings = settingChanges(columnsOf(before), columnsOf(definition));
      let optionChanges: OptionChanges | null = null;
      if (definition.inputType === INPUT_TYPES.enum && options) {
        optionChanges = await replaceOptions(trx, current, definition.options, now);
      } else if (definition.inputType !== INPUT_TYPES.enum && current.options.length > 0) {
        await trx('property_options').where({ property_id: current.row.id }).delete();
        optionChanges = { added: [], renamed: [], removed: current.options.map((o) => o.label), reordered: false };
      }
      const optionsChanged = optionChanges !== null && hasOptionChanges(optionChanges);
      if (Object.keys(settings).length === 0 && !optionsChanged) return;
      await trx('custom_properties')
        .where({ id: current.row.id })
        .update({
          ...columnsOf(definition),
          updated_at: now,
          ...(Object.keys(settings).length > 0 ? { lock_version: trx.raw('lock_version + 1') } : {}),
          ...(optionsChanged ? { options_version: trx.raw('options_version + 1') } : {}),
        });
      await oplog.append(trx, req, {
        action: 'property.updated',
        organizationId,
        actorUserId: principal.userId,
        targetType: 'property',
        targetId: current.row.id,
        details: { name: definition.name, settings, ...(optionsChanged ? { options: optionChanges } : {}) },
      });
    });
    return { body: { data: toResource(await loadProperty(knex, organizationId, params.propertyId)) } };
  });
}
