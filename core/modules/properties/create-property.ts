import {
  checkDefinition,
  normalizeDefinition,
  type PropertyDefinitionInput,
} from '../../contract/property-definition.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { columnsOf, invalid, loadProperty, MAX_PROPERTIES, toResource } from './model.ts';
import { assertUnique, lockProperties } from './save.ts';
import { PROPERTY_WRITE_GATE } from './gate.ts';

export function createPropertyRoute(api: ApiRouter, { knex, oplog, clock }: CoreDeps): void {
  api.operation('createProperty', PROPERTY_WRITE_GATE, async ({ principal, body, req }) => {
    const organizationId = principal.organizationId;
    const definition = normalizeDefinition(body.data.attributes as PropertyDefinitionInput);
    const problems = checkDefinition(definition);
    if (problems.length > 0) throw invalid(problems);
    const id = await knex.transaction(async (trx) => {
      await lockProperties(trx, organizationId);
      const [{ count }] = (await trx('custom_properties')
        .where({ organization_id: organizationId })
        .count({ count: '*' })) as [{ count: string | number }];
      if (Number(count) >= MAX_PROPERTIES) {
        throw new AppError('PROPERTY_LIMIT', { pointer: '/data', params: { max: MAX_PROPERTIES } });
      }
      await assertUnique(trx, organizationId, definition);
      const now = clock.now();
      const [row] = (await trx('custom_properties')
        .insert({ organization_id: organizationId, ...columnsOf(definition), created_at: now, updated_at: now })
        .returning('id')) as [{ id: string }];
      if (definition.options.length > 0) {
        await trx('property_options').insert(
          definition.options.map((option, position) => ({
            organization_id: organizationId,
            property_id: row.id,
            label: option.label,
            position,
            created_at: now,
          })),
        );
      }
      await oplog.append(trx, req, {
        action: 'property.created',
        organizationId,
        actorUserId: principal.userId,
        targetType: 'property',
        targetId: row.id,
        details: { ...columnsOf(definition), options: definition.options.map((o) => o.label) },
      });
      return row.id;
    });
    return { status: 201, body: { data: toResource(await loadProperty(knex, organizationId, id)) } };
  });
}
