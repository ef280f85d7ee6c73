import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { PROPERTY_WRITE_GATE } from './gate.ts';
import { loadProperty } from './model.ts';
import { lockProperties } from './save.ts';

export function deletePropertyRoute(api: ApiRouter, { knex, oplog }: CoreDeps): void {
  api.operation('deleteProperty', PROPERTY_WRITE_GATE, async ({ principal, params, req }) => {
    const organizationId = principal.organizationId;
    await knex.transaction(async (trx) => {
      await lockProperties(trx, organizationId);
      const property = await loadProperty(trx, organizationId, params.propertyId, true);
      if (property.inUse) throw new AppError('PROPERTY_IN_USE');
      await trx('property_options').where({ property_id: property.row.id }).delete();
      await trx('custom_properties').where({ id: property.row.id }).delete();
      await oplog.append(trx, req, {
        action: 'property.deleted',
        organizationId,
        actorUserId: principal.userId,
        targetType: 'property',
        targetId: property.row.id,
        details: { name: property.row.name, systemLinkId: property.row.system_link_id },
      });
    });
    return { status: 204 };
  });
}
