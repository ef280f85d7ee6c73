import type { Knex } from 'knex';
import {
  BASELINE_RULES,
  DEFAULT_PASSWORD_POLICY,
  PASSWORD_POLICY_LIMITS,
  type PasswordPolicy,
  policyFromRow,
} from '../../auth/password-policy.ts';
import type { ApiRouter } from '../../contract/router.ts';
import { assertLockVersion } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError, type FieldError } from '../../http/errors.ts';

const COLUMNS: Record<keyof PasswordPolicy, string> = {
  minLength: 'min_length',
  requireLowercase: 'require_lowercase',
  requireUppercase: 'require_uppercase',
  requireDigit: 'require_digit',
  requireSymbol: 'require_symbol',
  forbidUserId: 'forbid_user_id',
  expiryDays: 'expiry_days',
  reuseCount: 'reuse_count',
};

function body(organizationId: string, policy: PasswordPolicy, lockVersion: number) {
  return { data: { type: 'PasswordPolicy' as const, id: organizationId, attributes: { ...policy, lockVersion } } };
}

type PolicyRow = Record<string, any> & { lock_version: number };

/** The organization's policy row for update, created with the defaults first if the organization has none. */
async function lockedPolicyRow(trx: Knex.Transaction, organizationId: string): Promise<PolicyRow> {
  await trx('password_policies').insert({ organization_id: organizationId }).onConflict('organization_id').ignore();
  return (await trx('password_policies').where({ organization_id: organizationId }).forUpdate().first()) as PolicyRow;
}

/** A change may only make the policy stricter than the baseline. */
function baselineViolations(patch: Partial<PasswordPolicy>): FieldError[] {
  const problems: FieldError[] = [];
  const at = (field: string) => `/data/attributes/${field}`;
  if (patch.minLength !== undefined && patch.minLength < PASSWORD_POLICY_LIMITS.minLength.min) {
    problems.push({ code: 'PASSWORD_POLICY_BELOW_BASELINE', pointer: at('minLength') });
  }
  for (const rule of BASELINE_RULES) {
    if (patch[rule] === false) problems.push({ code: 'PASSWORD_POLICY_BELOW_BASELINE', pointer: at(rule) });
  }
  return problems;
}

/** getPasswordPolicy / updatePasswordPolicy (administrators). */
export function passwordPolicyRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, oplog, clock } = deps;
  const admin = { permission: 'organization:manage' } as const;

  api.operation('getPasswordPolicy', admin, async ({ principal }) => {
    const row = (await knex('password_policies').where({ organization_id: principal.organizationId }).first()) as
      PolicyRow | undefined;
    const policy = row ? policyFromRow(row) : DEFAULT_PASSWORD_POLICY;
    return { body: body(principal.organizationId, policy, row?.lock_version ?? 0) };
  });

  api.operation('updatePasswordPolicy', admin, async ({ principal, body: request, req }) => {
    const { lockVersion, ...patch } = request.data.attributes;
    const problems = baselineViolations(patch);
    if (problems.length > 0) throw AppError.invalid(problems);
    const organizationId = principal.organizationId;
    const updated = await knex.transaction(async (trx: Knex.Transaction) => {
      const row = await lockedPolicyRow(trx, organizationId);
      assertLockVersion(row, lockVersion);
      const before = policyFromRow(row);
      const after: PasswordPolicy = { ...DEFAULT_PASSWORD_POLICY, ...before, ...patch };
      const columns = Object.fromEntries(
        Object.entries(after).map(([key, value]) => [COLUMNS[key as keyof PasswordPolicy], value]),
      );
      const [saved] = await trx('password_policies')
        .where({ organization_id: organizationId })
        .update({ ...columns, updated_at: clock.now(), lock_version: trx.raw('lock_version + 1') })
        .returning('*');
      const changed = (Object.keys(after) as (keyof PasswordPolicy)[]).filter((key) => before[key] !== after[key]);
      await oplog.append(trx, req, {
        action: 'organization.password_policy_updated',
        organizationId,
        actorUserId: principal.userId,
        targetType: 'password_policy',
        targetId: organizationId,
        details: { changes: Object.fromEntries(changed.map((key) => [key, { from: before[key], to: after[key] }])) },
      });
      return saved as PolicyRow;
    });
    return { body: body(organizationId, policyFromRow(updated), updated.lock_version) };
  });
}
