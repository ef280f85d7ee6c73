import type { Knex } from 'knex';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Plan } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { pageOf } from '../../http/pagination.ts';
import type { OrganizationRow } from '../organizations/organization-resource.ts';
import { assertGroupsFit, sortedOptions } from './plan-change.ts';

/** A plan_change_requests row with the requester's name. */
export interface PlanChangeRequestRow {
  id: string;
  organization_id: string;
  plan: Plan;
  options: string[];
  comment: string;
  current_plan: Plan;
  current_options: string[];
  status: 'pending' | 'applied' | 'superseded' | 'withdrawn';
  requested_by: string | null;
  requested_by_name: string | null;
  created_at: Date;
  closed_at: Date | null;
}

/** Requests with their requester, for lists and single reads. */
export const requestsQuery = (db: Knex) =>
  db('plan_change_requests as r')
    .leftJoin('users as u', 'u.id', 'r.requested_by')
    .select('r.*', 'u.name as requested_by_name');

export function planChangeRequestResource(row: PlanChangeRequestRow) {
  return {
    type: 'PlanChangeRequest' as const,
    id: row.id,
    attributes: {
      plan: row.plan,
      options: sortedOptions(row.options),
      comment: row.comment,
      status: row.status,
      currentPlan: row.current_plan,
      currentOptions: sortedOptions(row.current_options),
      requestedBy: row.requested_by ? { id: row.requested_by, name: row.requested_by_name ?? '' } : null,
      createdAt: new Date(row.created_at).toISOString(),
      closedAt: row.closed_at ? new Date(row.closed_at).toISOString() : null,
    },
  };
}

/** The owner asks the operator for a plan or options change; administrators see the requests. */
export function planChangeRequestRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, oplog, clock } = deps;

  api.operation('listPlanChangeRequests', { permission: 'organization:manage' }, async ({ principal, query }) => {
    const scope = requestsQuery(knex).where('r.organization_id', principal.organizationId);
    const { rows, meta } = await pageOf<PlanChangeRequestRow>(
      scope,
      query,
      { createdAt: 'r.created_at' },
      '-createdAt',
      'r.id',
    );
    return { body: { data: rows.map(planChangeRequestResource), meta } };
  });

  api.operation('requestPlanChange', { permission: 'organization:owner' }, async ({ principal, body, req }) => {
    const { plan, options, comment = '' } = body.data.attributes;
    const organizationId = principal.organizationId;
    const wanted = sortedOptions(options);
    const id = await knex.transaction(async (trx) => {
      const organization = await trx('organizations')
        .where({ id: organizationId })
        .forUpdate()
        .first<OrganizationRow>();
      if (!organization) throw new AppError('NOT_FOUND');
      const current = sortedOptions(organization.options);
      if (organization.plan === plan && current.join() === wanted.join()) {
        throw new AppError('PLAN_CHANGE_UNCHANGED', { pointer: '/data/attributes/plan' });
      }
      if (plan !== organization.plan) await assertGroupsFit(trx, organizationId, plan, '/data/attributes/plan');
      const now = clock.now();
      await trx('plan_change_requests')
        .where({ organization_id: organizationId, status: 'pending' })
        .update({ status: 'superseded', closed_at: now });
      const [row] = await trx('plan_change_requests')
        .insert({
          organization_id: organizationId,
          plan,
          options: wanted,
          comment: comment.trim(),
          current_plan: organization.plan,
          current_options: current,
          requested_by: principal.userId,
          created_at: now,
        })
        .returning('id');
      await oplog.append(trx, req, {
        action: 'organization.plan_change_requested',
        organizationId,
        actorUserId: principal.userId,
        targetType: 'plan_change_request',
        targetId: row.id,
        details: { before: { plan: organization.plan, options: current }, requested: { plan, options: wanted } },
      });
      return row.id as string;
    });
    const row = await requestsQuery(knex).where('r.id', id).first<PlanChangeRequestRow>();
    return { status: 201, body: { data: planChangeRequestResource(row) } };
  });

  api.operation(
    'withdrawPlanChangeRequest',
    { permission: 'organization:owner' },
    async ({ principal, params, req }) => {
      await knex.transaction(async (trx) => {
        const row = await trx('plan_change_requests')
          .where({ id: params.requestId, organization_id: principal.organizationId })
          .forUpdate()
          .first<PlanChangeRequestRow | undefined>();
        if (!row) throw new AppError('NOT_FOUND');
        if (row.status !== 'pending') throw new AppError('PLAN_CHANGE_REQUEST_CLOSED');
        await trx('plan_change_requests').where({ id: row.id }).update({ status: 'withdrawn', closed_at: clock.now() });
        await oplog.append(trx, req, {
          action: 'organization.plan_change_withdrawn',
          organizationId: principal.organizationId,
          actorUserId: principal.userId,
          targetType: 'plan_change_request',
          targetId: row.id,
        });
      });
      return { status: 204 };
    },
  );
}
