import type { Knex } from 'knex';
import { perIp } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { assertBearerSecret } from '../../access/bearer-secret.ts';
import { pageOf } from '../../http/pagination.ts';
import { countGroups, type OrganizationRow } from '../organizations/organization-resource.ts';
import { applyPlanChange, sortedOptions } from './plan-change.ts';
import { planChangeRequestResource, type PlanChangeRequestRow, requestsQuery } from './requests.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An organization by id or code, or 404. */
async function findOrganization(db: Knex, idOrCode: string): Promise<OrganizationRow> {
  const row = await db('organizations')
    .where(UUID.test(idOrCode) ? { id: idOrCode } : { code: idOrCode })
    .first<OrganizationRow | undefined>();
  if (!row) throw new AppError('NOT_FOUND', { detail: `organization ${idOrCode}` });
  return row;
}

async function operatorOrganization(db: Knex, row: OrganizationRow & { created_at: Date }) {
  const pending = await requestsQuery(db)
    .where({ 'r.organization_id': row.id, 'r.status': 'pending' })
    .first<PlanChangeRequestRow | undefined>();
  return {
    type: 'OperatorOrganization' as const,
    id: row.id,
    attributes: {
      code: row.code,
      name: row.name,
      plan: row.plan,
      options: sortedOptions(row.options),
      groupCount: await countGroups(db, row.id),
      createdAt: new Date(row.created_at).toISOString(),
      pendingRequest: pending ? planChangeRequestResource(pending) : null,
    },
  };
}

/**
 * The service operator's plan administration, for `keiyaku plans` / `keiyaku orgs`: every organization, its plan and
 * options and its pending request; changes are logged in the organization's operation log.
 */
export function operatorRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, oplog, clock, config } = deps;
  const limited = { rateLimit: [perIp('operatorTokenPerIp')] } as const;

  api.operation('listOperatorOrganizations', limited, async ({ header, query }) => {
    assertBearerSecret(config.operatorToken, header('authorization'));
    const scope = knex('organizations as o').select('o.*');
    if (query['filter[code]']) scope.where('o.code', query['filter[code]']);
    if (query['filter[pendingRequest]'] !== undefined) {
      const pending = knex('plan_change_requests as r')
        .whereRaw('r.organization_id = o.id')
        .where('r.status', 'pending');
      if (query['filter[pendingRequest]']) scope.whereExists(pending);
      else scope.whereNotExists(pending);
    }
    const { rows, meta } = await pageOf<OrganizationRow & { created_at: Date }>(
      scope,
      query,
      { createdAt: 'o.created_at' },
      'createdAt',
      'o.id',
    );
    const data = [];
    for (const row of rows) data.push(await operatorOrganization(knex, row));
    return { body: { data, meta } };
  });

  api.operation('setOrganizationPlan', limited, async ({ header, params, body, req }) => {
    assertBearerSecret(config.operatorToken, header('authorization'));
    const found = await findOrganization(knex, params.organization);
    const row = await knex.transaction((trx) =>
      applyPlanChange(
        trx,
        { oplog, now: clock.now() },
        found.id,
        {
          plan: body.data.attributes.plan,
          options: found.options,
        },
        req,
      ),
    );
    return { body: { data: await operatorOrganization(knex, row as OrganizationRow & { created_at: Date }) } };
  });

  api.operation('setOrganizationOption', limited, async ({ header, params, body, req }) => {
    assertBearerSecret(config.operatorToken, header('authorization'));
    const found = await findOrganization(knex, params.organization);
    const row = await knex.transaction(async (trx) => {
      const current = await trx('organizations').where({ id: found.id }).forUpdate().first<OrganizationRow>();
      const others = current.options.filter((o) => o !== params.option);
      const options = body.data.attributes.enabled ? [...others, params.option] : others;
      return applyPlanChange(trx, { oplog, now: clock.now() }, found.id, { plan: current.plan, options }, req);
    });
    return { body: { data: await operatorOrganization(knex, row as OrganizationRow & { created_at: Date }) } };
  });
}
