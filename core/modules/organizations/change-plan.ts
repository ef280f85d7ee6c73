import type { Knex } from 'knex';
import type { ApiRouter } from '../../contract/router.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { countGroups, organizationBody, type OrganizationRow } from './organization-resource.ts';
import { maxGroupsOf } from './plan-limits.ts';

/**
 * changeOrganizationPlan: the owner switches plan and paid options at once (self-service; billing is handled
 * outside the service). A plan allowing fewer groups than the organization has is refused.
 */
export function changePlanRoute(api: ApiRouter, deps: CoreDeps): void {
  const { knex, oplog, clock } = deps;
  api.operation('changeOrganizationPlan', { permission: 'organization:owner' }, async ({ principal, body, req }) => {
    const { plan, options, lockVersion } = body.data.attributes;
    const organizationId = principal.organizationId;
    const wanted = [...new Set(options)].sort();
    const row = await knex.transaction(async (trx: Knex.Transaction) => {
      const before = await trx('organizations').where({ id: organizationId }).forUpdate().first<OrganizationRow>();
      if (!before) throw new AppError('NOT_FOUND');
      assertLockVersion(before, lockVersion);
      const max = maxGroupsOf(plan);
      const groups = await countGroups(trx, organizationId);
      if (max !== null && groups > max) {
        throw new AppError('PLAN_GROUP_LIMIT_EXCEEDED', {
          pointer: '/data/attributes/plan',
          params: { max, count: groups },
        });
      }
      const [after] = (await trx('organizations')
        .where({ id: organizationId })
        .update({ plan, options: wanted, updated_at: clock.now(), lock_version: trx.raw('lock_version + 1') })
        .returning('*')) as OrganizationRow[];
      await oplog.append(trx, req, {
        action: 'organization.plan_changed',
        organizationId,
        actorUserId: principal.userId,
        targetType: 'organization',
        targetId: organizationId,
        details: {
          before: { plan: before.plan, options: [...before.options].sort() },
          after: { plan, options: wanted },
        },
      });
      return after!;
    });
    return { body: await organizationBody(knex, row, principal, maxGroupsOf) };
  });
}
