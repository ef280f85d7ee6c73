import type { Knex } from 'knex';
import { PAID_OPTIONS, PLAN_FEATURES, PLANS, type PaidOption } from '../../access/plans.ts';
import type { Plan, Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';

/** The organizations columns this module reads. */
export interface OrganizationRow {
  id: string;
  code: string;
  name: string;
  corporate_number: string | null;
  not_subject_to_corporate_number: boolean;
  address: string;
  plan: Plan;
  options: PaidOption[];
  lock_version: number;
  updated_at: Date;
}

/** How many groups an organization has (what a plan's group limit counts). */
export async function countGroups(knex: Knex, organizationId: string): Promise<number> {
  const [{ count }] = (await knex('groups').where({ organization_id: organizationId }).count({ count: '*' })) as [
    { count: number | string },
  ];
  return Number(count);
}

/** Reads the caller's organization (always the principal's own: there is no id to guess). */
export async function organizationRow(knex: Knex, organizationId: string): Promise<OrganizationRow> {
  const row = await knex('organizations').where({ id: organizationId }).first<OrganizationRow | undefined>();
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

/** The JSON:API document of an organization, with its owner, group count and the plan catalogue. */
export async function organizationBody(
  knex: Knex,
  row: OrganizationRow,
  principal: Principal,
  maxGroups: (plan: Plan) => number | null,
) {
  const owner = await knex('users')
    .where({ organization_id: row.id, is_owner: true })
    .orderBy('created_at')
    .first<{ id: string; login_id: string; name: string } | undefined>('id', 'login_id', 'name');
  return {
    data: {
      type: 'Organization' as const,
      id: row.id,
      attributes: {
        code: row.code,
        name: row.name,
        corporateNumber: row.corporate_number,
        notSubjectToCorporateNumber: row.not_subject_to_corporate_number,
        address: row.address,
        plan: row.plan,
        options: [...row.options].sort(),
        owner: owner
          ? { id: owner.id, loginId: owner.login_id, name: owner.name, isCaller: owner.id === principal.userId }
          : null,
        groupCount: await countGroups(knex, row.id),
        updatedAt: new Date(row.updated_at).toISOString(),
        lockVersion: row.lock_version,
      },
    },
    meta: {
      plans: PLANS.map((plan) => ({ plan, maxGroups: maxGroups(plan), features: [...PLAN_FEATURES[plan]] })),
      options: [...PAID_OPTIONS],
    },
  };
}
