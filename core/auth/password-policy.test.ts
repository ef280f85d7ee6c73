import { describe, expect, it } from 'vitest';
import {
  confirmationViolation,
  DEFAULT_PASSWORD_POLICY,
  passwordExpiresAt,
  passwordRuleViolations,
} from './password-policy.ts';

const POINTER = '/data/attributes/password';
const codes = (password: string, loginId = 'yamada', policy = DEFAULT_PASSWORD_POLICY) =>
  passwordRuleViolations(password, loginId, policy).map((e) => e.code);

describe('passwordRuleViolations', () => {
  it('accepts 8 half-width characters with a lowercase letter and a digit', () => {
    expect(passwordRuleViolations('abcdefg1', 'yamada', DEFAULT_PASSWORD_POLICY)).toEqual([]);
    expect(passwordRuleViolations('Pass-word_1', 'yamada', DEFAULT_PASSWORD_POLICY)).toEqual([]);
  });

  it('rejects a password shorter than 8 characters with PASSWORD_TOO_SHORT and the minimum as a parameter', () => {
    expect(passwordRuleViolations('abcdef1', 'yamada', DEFAULT_PASSWORD_POLICY)).toEqual([
      { code: 'PASSWORD_TOO_SHORT', pointer: POINTER, params: { min: 8 } },
    ]);
  });

  it("applies the organization's minimum length instead of the default", () => {
    const policy = { ...DEFAULT_PASSWORD_POLICY, minLength: 12 };
    expect(passwordRuleViolations('abcdefghij1', 'yamada', policy)).toEqual([
      { code: 'PASSWORD_TOO_SHORT', pointer: POINTER, params: { min: 12 } },
    ]);
    expect(codes('abcdefghijk1', 'yamada', policy)).toEqual([]);
  });

  it('rejects full-width characters with PASSWORD_NOT_HALF_WIDTH', () => {
    expect(codes('password1２')).toEqual(['PASSWORD_NOT_HALF_WIDTH']);
    expect(codes('パスワードabc12')).toEqual(['PASSWORD_NOT_HALF_WIDTH']);
  });

  it('rejects spaces and control characters as not half-width printable', () => {
    expect(codes('pass word1')).toEqual(['PASSWORD_NOT_HALF_WIDTH']);
    expect(codes('password1\t')).toEqual(['PASSWORD_NOT_HALF_WIDTH']);
  });

  it('rejects a password without a lowercase letter with PASSWORD_REQUIRES_LOWERCASE', () => {
    expect(codes('ABCDEFG123')).toEqual(['PASSWORD_REQUIRES_LOWERCASE']);
  });

  it('rejects a password without a digit with PASSWORD_REQUIRES_DIGIT', () => {
    expect(codes('abcdefghij')).toEqual(['PASSWORD_REQUIRES_DIGIT']);
  });

  it('rejects a password that contains the user ID, ignoring case, with PASSWORD_CONTAINS_USER_ID', () => {
    expect(codes('my-yamada-1')).toEqual(['PASSWORD_CONTAINS_USER_ID']);
    expect(codes('xxYAMADAxx1', 'Yamada')).toEqual(['PASSWORD_CONTAINS_USER_ID']);
  });

  it('reports every broken rule at once, each at the password pointer', () => {
    const errors = passwordRuleViolations('ＡＢ', 'yamada', DEFAULT_PASSWORD_POLICY);
    expect(errors.map((e) => e.code).sort()).toEqual(
      [
        'PASSWORD_NOT_HALF_WIDTH',
        'PASSWORD_REQUIRES_DIGIT',
        'PASSWORD_REQUIRES_LOWERCASE',
        'PASSWORD_TOO_SHORT',
      ].sort(),
    );
    expect(new Set(errors.map((e) => e.pointer))).toEqual(new Set([POINTER]));
  });
});

describe('confirmationViolation', () => {
  it('accepts an exact repeat and rejects anything else at the confirmation pointer', () => {
    expect(confirmationViolation('abcdefg1', 'abcdefg1')).toEqual([]);
    expect(confirmationViolation('abcdefg1', 'abcdefg2')).toEqual([
      { code: 'PASSWORD_CONFIRMATION_MISMATCH', pointer: '/data/attributes/passwordConfirmation' },
    ]);
  });
});

describe('passwordExpiresAt', () => {
  it('never expires without expiry days and expires expiryDays after the change otherwise', () => {
    const changed = new Date('2026-11-01T00:00:00Z');
    expect(passwordExpiresAt(changed, DEFAULT_PASSWORD_POLICY)).toBeNull();
    expect(passwordExpiresAt(changed, { ...DEFAULT_PASSWORD_POLICY, expiryDays: 30 })).toEqual(
      new Date('2026-12-01T00:00:00Z'),
    );
  });
});
