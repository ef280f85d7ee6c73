import type { Knex } from 'knex';
import { PAID_OPTIONS, PLAN_LIMITS, type PaidOption } from '../../access/plans.ts';
import type { Plan, RequestContext } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import type { OperationLog } from '../logs/operation-log.ts';
import { countGroups, type OrganizationRow } from '../organizations/organization-resource.ts';

/** 422 PLAN_GROUP_LIMIT_EXCEEDED when the organization has more groups than `plan` allows. */
export async function assertGroupsFit(db: Knex, organizationId: string, plan: Plan, pointer: string): Promise<void> {
  const max = PLAN_LIMITS[plan].groups;
  const count = await countGroups(db, organizationId);
  if (count > max) throw new AppError('PLAN_GROUP_LIMIT_EXCEEDED', { pointer, params: { max, count } });
}

/** Options in the catalogue's order, without repeats. */
export const sortedOptions = (options: readonly string[]): PaidOption[] =>
  PAID_OPTIONS.filter((option) => options.includes(option));

/**
 * The operator puts an organization on `plan` with `options` (locked, in the caller's transaction): the group limit
 * is checked, the change logged as `organization.plan_changed` (by: operator), and a pending request it fulfils
 * marked applied. Returns the organization after the change.
 */
export async function applyPlanChange(
  trx: Knex.Transaction,
  deps: { oplog: OperationLog; now: Date },
  organizationId: string,
  change: { plan: Plan; options: readonly string[] },
  req: RequestContext,
): Promise<OrganizationRow> {
  const before = await trx('organizations').where({ id: organizationId }).forUpdate().first<OrganizationRow>();
  if (!before) throw new AppError('NOT_FOUND');
  const options = sortedOptions(change.options);
  if (change.plan !== before.plan) await assertGroupsFit(trx, organizationId, change.plan, '/data/attributes/plan');
  const [after] = (await trx('organizations')
    .where({ id: organizationId })
    .update({
      plan: change.plan,
      options,
      updated_at: deps.now,
      lock_version: trx.raw('lock_version + 1'),
    })
    .returning('*')) as OrganizationRow[];
  const pending = await trx('plan_change_requests')
    .where({ organization_id: organizationId, status: 'pending' })
    .first<{ id: string; plan: Plan; options: string[] } | undefined>('id', 'plan', 'options');
  const fulfils = pending && pending.plan === change.plan && sortedOptions(pending.options).join() === options.join();
  if (fulfils) {
    await trx('plan_change_requests').where({ id: pending.id }).update({ status: 'applied', closed_at: deps.now });
  }
  await deps.oplog.append(trx, req, {
    action: 'organization.plan_changed',
    organizationId,
    actorUserId: null,
    targetType: 'organization',
    targetId: organizationId,
    details: {
      by: 'operator',
      before: { plan: before.plan, options: sortedOptions(before.options) },
      after: { plan: change.plan, options },
      requestId: fulfils ? pending.id : null,
    },
  });
  return after!;
}
