import { describe, expect, it } from 'vitest';
import {
  corporateNumberProblems,
  emailProblems,
  isValidCorporateNumber,
  loginIdProblems,
  passwordProblems,
  validatePasswordChange,
  validateSignIn,
  validateSignUp,
} from './validation.ts';

const codes = (problems: { code: string }[]) => problems.map((problem) => problem.code);

describe('passwordProblems (the server rules of core/auth/password-policy.ts)', () => {
  it('accepts 8 half-width characters with a lowercase letter and a digit', () => {
    expect(passwordProblems('abcdefg1', 'someone')).toEqual([]);
    expect(passwordProblems('Pa$$w0rd!x', 'someone')).toEqual([]);
  });

  it('reports every broken rule with the server code, in the server order', () => {
    expect(codes(passwordProblems('ＡＢＣ', 'someone'))).toEqual([
      'PASSWORD_NOT_HALF_WIDTH',
      'PASSWORD_TOO_SHORT',
      'PASSWORD_REQUIRES_LOWERCASE',
      'PASSWORD_REQUIRES_DIGIT',
    ]);
    expect(passwordProblems('abc1', 'someone')).toEqual([{ code: 'PASSWORD_TOO_SHORT', params: { min: 8 } }]);
  });

  it('refuses a space, which is not printable half-width ASCII for the server', () => {
    expect(codes(passwordProblems('abcd efg1', 'someone'))).toEqual(['PASSWORD_NOT_HALF_WIDTH']);
  });

  it('refuses a password containing the user ID, ignoring case', () => {
    expect(codes(passwordProblems('xxYamada01', 'yamada'))).toEqual(['PASSWORD_CONTAINS_USER_ID']);
    expect(passwordProblems('xxyamada01', '')).toEqual([]);
  });

  it('says only "required" for an empty field', () => {
    expect(passwordProblems('', 'someone')).toEqual([{ code: 'VALIDATION_FAILED', reason: 'required' }]);
  });
});

describe('loginIdProblems', () => {
  it('accepts 5 to 100 characters', () => {
    expect(loginIdProblems('abcde')).toEqual([]);
    expect(loginIdProblems('a'.repeat(100))).toEqual([]);
  });

  it.each(['abcd', 'a'.repeat(101)])('refuses %s', (loginId) => {
    expect(loginIdProblems(loginId)).toEqual([
      { code: 'VALIDATION_FAILED', reason: 'loginIdLength', params: { min: 5, max: 100 } },
    ]);
  });
});

describe('emailProblems', () => {
  it.each(['user@example.com', 'first.last+tag@sub.example.co.jp'])('accepts %s', (email) => {
    expect(emailProblems(email)).toEqual([]);
  });

  it.each(['user@', 'user@example', '@example.com', 'us er@example.com', 'user@@example.com'])(
    'refuses %s',
    (email) => {
      expect(emailProblems(email)).toEqual([{ code: 'VALIDATION_FAILED', reason: 'emailFormat' }]);
    },
  );
});

describe('corporate numbers (the check digit of core/modules/organizations/corporate-number.ts)', () => {
  it('accepts a number whose first digit checks the other twelve', () => {
    // National Tax Agency: 7000012050002 (a published corporate number).
    expect(isValidCorporateNumber('7000012050002')).toBe(true);
    expect(corporateNumberProblems('7000012050002')).toEqual([]);
  });

  it('refuses a wrong check digit with CORPORATE_NUMBER_INVALID', () => {
    expect(corporateNumberProblems('1000012050002')).toEqual([{ code: 'CORPORATE_NUMBER_INVALID' }]);
  });

  it('refuses anything but 13 digits', () => {
    expect(codes(corporateNumberProblems('700001205000'))).toEqual(['CORPORATE_NUMBER_INVALID']);
    expect(codes(corporateNumberProblems('７000012050002'))).toEqual(['CORPORATE_NUMBER_INVALID']);
  });
});

describe('form validators', () => {
  const signUp = {
    organizationName: '株式会社テスト',
    corporateNumber: '',
    noCorporateNumber: true,
    loginId: 'yamada',
    userName: '山田 太郎',
    email: 'yamada@example.com',
    password: 'secret-pass1',
    passwordConfirmation: 'secret-pass1',
    agreed: true,
  };

  it('passes a complete sign-up without a corporate number when it is marked as not applicable', () => {
    expect(validateSignUp(signUp)).toEqual({});
  });

  it('asks for the corporate number, the consent and a matching confirmation', () => {
    const problems = validateSignUp({ ...signUp, noCorporateNumber: false, agreed: false, passwordConfirmation: 'x' });
    expect(Object.keys(problems).sort()).toEqual(['acceptTermId', 'corporateNumber', 'passwordConfirmation']);
    expect(codes(problems.acceptTermId!)).toEqual(['TERMS_NOT_AGREED']);
    expect(codes(problems.passwordConfirmation!)).toEqual(['PASSWORD_CONFIRMATION_MISMATCH']);
  });

  it('sign-in only needs both fields', () => {
    expect(Object.keys(validateSignIn({ loginId: '', password: '' }))).toEqual(['loginId', 'password']);
    expect(validateSignIn({ loginId: 'a', password: 'b' })).toEqual({});
  });

  it('a changed password must differ from the current one', () => {
    const problems = validatePasswordChange({
      loginId: 'yamada',
      currentPassword: 'secret-pass1',
      password: 'secret-pass1',
      passwordConfirmation: 'secret-pass1',
    });
    expect(codes(problems.password!)).toEqual(['PASSWORD_SAME_AS_CURRENT']);
  });
});
