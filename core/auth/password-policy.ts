import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import type { FieldError } from '../http/errors.ts';
import { verifyPassword } from './passwords.ts';

/** An organization's password policy; defaults apply until an administrator changes it. */
export interface PasswordPolicy {
  minLength: number;
  requireLowercase: boolean;
  requireUppercase: boolean;
  requireDigit: boolean;
  requireSymbol: boolean;
  /** The password must not contain the user ID (case-insensitive). */
  forbidUserId: boolean;
  /** Days a password stays valid; null means it never expires. */
  expiryDays: number | null;
  /** How many previous passwords may not be used again. */
  reuseCount: number;
}

/**
 * The service baseline (the spec's "at least 8 half-width characters with a lowercase letter and a digit", never
 * containing the user ID) and every organization's starting policy. A policy may only be stricter than this.
 */
export const DEFAULT_PASSWORD_POLICY: PasswordPolicy = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: false,
  requireDigit: true,
  requireSymbol: false,
  forbidUserId: true,
  expiryDays: null,
  reuseCount: 5,
};

/** Bounds of the values an administrator may choose (the spec leaves them open: "not shown"). */
export const PASSWORD_POLICY_LIMITS = {
  minLength: { min: 8, max: 64 },
  expiryDays: { min: 1, max: 999 },
  reuseCount: { min: 0, max: 24 },
} as const;

/** The switches of a policy that the baseline keeps on: a policy turning one off is refused. */
export const BASELINE_RULES = ['requireLowercase', 'requireDigit', 'forbidUserId'] as const;

const HALF_WIDTH = /^[\x21-\x7e]+$/;
const PASSWORD = '/data/attributes/password';

/** The rules a password can break on its own (without history), each as its own field error. */
export function passwordRuleViolations(password: string, loginId: string, policy: PasswordPolicy): FieldError[] {
  const errors: FieldError[] = [];
  const add = (code: FieldError['code'], params?: FieldError['params']) =>
    errors.push({ code, pointer: PASSWORD, params });
  if (!HALF_WIDTH.test(password)) add('PASSWORD_NOT_HALF_WIDTH');
  if (password.length < policy.minLength) add('PASSWORD_TOO_SHORT', { min: policy.minLength });
  if (policy.requireLowercase && !/[a-z]/.test(password)) add('PASSWORD_REQUIRES_LOWERCASE');
  if (policy.requireUppercase && !/[A-Z]/.test(password)) add('PASSWORD_REQUIRES_UPPERCASE');
  if (policy.requireDigit && !/[0-9]/.test(password)) add('PASSWORD_REQUIRES_DIGIT');
  if (policy.requireSymbol && !/[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/.test(password)) add('PASSWORD_REQUIRES_SYMBOL');
  if (policy.forbidUserId && loginId && password.toLowerCase().includes(loginId.toLowerCase())) {
    add('PASSWORD_CONTAINS_USER_ID');
  }
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
  return row ? policyFromRow(row) : DEFAULT_PASSWORD_POLICY;
}

/** A password_policies row as a policy. */
export function policyFromRow(row: Record<string, any>): PasswordPolicy {
  return {
    minLength: row.min_length,
    requireLowercase: row.require_lowercase,
    requireUppercase: row.require_uppercase,
    requireDigit: row.require_digit,
    requireSymbol: row.require_symbol,
    forbidUserId: row.forbid_user_id,
    expiryDays: row.expiry_days,
    reuseCount: row.reuse_count,
  };
}

const TEMPORARY_ALPHABETS = {
  lower: 'abcdefghijkmnpqrstuvwxyz',
  upper: 'ABCDEFGHJKLMNPQRSTUVWXYZ',
  digit: '23456789',
  symbol: '#$%&+-=?@_',
};

/**
 * A random temporary password that satisfies the policy (length max(12, minLength), every required character
 * class, no user ID): invitations and administrator resets issue these.
 */
export function temporaryPasswordFor(policy: PasswordPolicy, loginId = ''): string {
  const length = Math.max(12, policy.minLength);
  const all = Object.values(TEMPORARY_ALPHABETS).join('');
  const pick = (alphabet: string) => alphabet[randomInt(alphabet.length)]!;
  for (;;) {
    const chars = [
      pick(TEMPORARY_ALPHABETS.lower),
      pick(TEMPORARY_ALPHABETS.upper),
      pick(TEMPORARY_ALPHABETS.digit),
      pick(TEMPORARY_ALPHABETS.symbol),
    ];
    while (chars.length < length) chars.push(pick(all));
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    }
    const password = chars.join('');
    if (passwordRuleViolations(password, loginId, policy).length === 0) return password;
  }
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
