import type { Knex } from 'knex';
import type { FieldError } from '../http/errors.ts';
import { verifyPassword } from './passwords.ts';

/** An organization's password policy; defaults apply until an administrator changes it. */
export interface PasswordPolicy {
  minLength: number;
  /** Days a password stays valid; null means it never expires. */
  expiryDays: number | null;
  /** How many previous passwords may not be used again. */
  reuseCount: number;
}

export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = { minLength: 8, expiryDays: null, reuseCount: 5 };

const HALF_WIDTH = /^[\x21-\x7e]+$/;
const PASSWORD = '/data/attributes/password';

/** The rules a password can break on its own (without history), each as its own field error. */
export function passwordRuleViolations(password: string, loginId: string, policy: PasswordPolicy): FieldError[] {
  const errors: FieldError[] = [];
  const add = (code: FieldError['code'], params?: FieldError['params']) =>
    errors.push({ code, pointer: PASSWORD, params });
  if (!HALF_WIDTH.test(password)) add('PASSWORD_NOT_HALF_WIDTH');
  if (password.length < policy.minLength) add('PASSWORD_TOO_SHORT', { min: policy.minLength });
  if (!/[a-z]/.test(password)) add('PASSWORD_REQUIRES_LOWERCASE');
  if (!/[0-9]/.test(password)) add('PASSWORD_REQUIRES_DIGIT');
  if (loginId && password.toLowerCase().includes(loginId.toLowerCase())) add('PASSWORD_CONTAINS_USER_ID');
  return errors;
}

/** The confirmation must repeat the password exactly. */
export function confirmationViolation(password: string, confirmation: string): FieldError[] {
  return password === confirmation
    ? []
    : [{ code: 'PASSWORD_CONFIRMATION_MISMATCH', pointer: '/data/attributes/passwordConfirmation' }];
}

/** Loads an organization's policy (the defaults when it has none yet). */
export async function loadPasswordPolicy(knex: Knex, organizationId: string): Promise<PasswordPolicy> {
  const row = await knex('password_policies').where({ organization_id: organizationId }).first();
  if (!row) return DEFAULT_PASSWORD_POLICY;
  return { minLength: row.min_length, expiryDays: row.expiry_days, reuseCount: row.reuse_count };
}

/** The new password must differ from the current one and from the last `reuseCount` ones. */
export async function historyViolation(
  knex: Knex,
  user: { id: string; password_hash: string },
  password: string,
  policy: PasswordPolicy,
): Promise<FieldError[]> {
  if (await verifyPassword(user.password_hash, password)) {
    return [{ code: 'PASSWORD_SAME_AS_CURRENT', pointer: PASSWORD }];
  }
  if (policy.reuseCount <= 0) return [];
  const previous = await knex('password_history')
    .where({ user_id: user.id })
    .orderBy('id', 'desc')
    .limit(policy.reuseCount)
    .pluck('password_hash');
  for (const hash of previous) {
    if (await verifyPassword(hash, password)) {
      return [{ code: 'PASSWORD_REUSED', pointer: PASSWORD, params: { count: policy.reuseCount } }];
    }
  }
  return [];
}

/** When the password set at `changedAt` expires under the policy, or null. */
export function passwordExpiresAt(changedAt: Date, policy: PasswordPolicy): Date | null {
  if (!policy.expiryDays) return null;
  return new Date(changedAt.getTime() + policy.expiryDays * 86_400_000);
}
