import { describe, expect, it } from 'vitest';
import {
  EMPTY_USER,
  inputOf,
  serverProblems,
  subEmailList,
  toCreateAttributes,
  toUpdateAttributes,
  type UserInput,
  validateUser,
} from './validation.ts';

const GROUP = '0190a8a0-0000-7000-8000-000000000001';
const valid: UserInput = {
  ...EMPTY_USER,
  loginId: 'tanaka01',
  name: '田中 一郎',
  email: 'tanaka@example.com',
  groupIds: [GROUP],
};

describe('validateUser', () => {
  it('accepts a complete user', () => {
    expect(validateUser(valid)).toEqual({});
  });

  it('requires user ID, name, e-mail and at least one group', () => {
    expect(validateUser(EMPTY_USER)).toEqual({
      loginId: [{ code: 'VALIDATION_FAILED', reason: 'required' }],
      name: [{ code: 'VALIDATION_FAILED', reason: 'required' }],
      email: [{ code: 'VALIDATION_FAILED', reason: 'required' }],
      groupIds: [{ code: 'USER_GROUP_REQUIRED' }],
    });
  });

  it('takes a user ID of 5 to 100 characters', () => {
    expect(validateUser({ ...valid, loginId: 'abcd' }).loginId).toEqual([
      { code: 'LOGIN_ID_INVALID', params: { min: 5, max: 100 } },
    ]);
    expect(validateUser({ ...valid, loginId: 'abcde' }).loginId).toBeUndefined();
    expect(validateUser({ ...valid, loginId: 'a'.repeat(100) }).loginId).toBeUndefined();
    expect(validateUser({ ...valid, loginId: 'a'.repeat(101) }).loginId?.[0]?.code).toBe('LOGIN_ID_INVALID');
  });

  it('checks the e-mail format and each sub e-mail, at most three', () => {
    expect(validateUser({ ...valid, email: 'not-an-address' }).email).toEqual([{ code: 'EMAIL_INVALID' }]);
    expect(validateUser({ ...valid, subEmails: 'a@example.com\n\nb@example.com' }).subEmails).toBeUndefined();
    expect(validateUser({ ...valid, subEmails: 'a@example.com\nbroken' }).subEmails).toEqual([
      { code: 'EMAIL_INVALID' },
    ]);
    expect(validateUser({ ...valid, subEmails: 'a@x.jp\nb@x.jp\nc@x.jp\nd@x.jp' }).subEmails).toEqual([
      { code: 'SUB_EMAIL_LIMIT', params: { max: 3 } },
    ]);
  });

  it('takes a mobile phone number of 10 or 11 digits without hyphens, or none', () => {
    expect(validateUser({ ...valid, mobilePhone: '' }).mobilePhone).toBeUndefined();
    expect(validateUser({ ...valid, mobilePhone: '09012345678' }).mobilePhone).toBeUndefined();
    expect(validateUser({ ...valid, mobilePhone: '0312345678' }).mobilePhone).toBeUndefined();
    for (const wrong of ['090-1234-5678', '090123456', '090123456789', '０９０１２３４５６７８', '+819012345678']) {
      expect(validateUser({ ...valid, mobilePhone: wrong }).mobilePhone, wrong).toEqual([
        { code: 'MOBILE_PHONE_INVALID' },
      ]);
    }
  });

  it('limits the ID for system link to 100 characters', () => {
    expect(validateUser({ ...valid, systemLinkId: 'x'.repeat(100) }).systemLinkId).toBeUndefined();
    expect(validateUser({ ...valid, systemLinkId: 'x'.repeat(101) }).systemLinkId).toEqual([
      { code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max: 100 } },
    ]);
  });
});

describe('request attributes', () => {
  it('trims texts, splits sub e-mails by line and sends empty optionals as null', () => {
    const attributes = toCreateAttributes({
      ...valid,
      loginId: ' tanaka01 ',
      subEmails: ' a@example.com \n\n',
      mobilePhone: ' ',
      systemLinkId: '',
      roleIds: ['r1'],
    });
    expect(attributes).toEqual({
      loginId: 'tanaka01',
      name: '田中 一郎',
      email: 'tanaka@example.com',
      subEmails: ['a@example.com'],
      mobilePhone: null,
      isAdmin: false,
      systemLinkId: null,
      groupIds: [GROUP],
      roleIds: ['r1'],
    });
    expect(toUpdateAttributes(valid, 7)).toMatchObject({ lockVersion: 7, loginId: 'tanaka01' });
  });

  it('round-trips a user through the form', () => {
    const user = {
      type: 'User' as const,
      id: 'u1',
      attributes: {
        loginId: 'tanaka01',
        name: '田中 一郎',
        email: 'tanaka@example.com',
        subEmails: ['a@example.com', 'b@example.com'],
        mobilePhone: null,
        locale: 'ja' as const,
        isOwner: false,
        isAdmin: true,
        status: 'active' as const,
        locked: false,
        lockedByAdmin: false,
        emailBlocked: false,
        mustChangePassword: true,
        systemLinkId: 'EXT-1',
        groups: [{ id: GROUP, name: '営業部', isGroupAdmin: false }],
        roles: [{ id: 'r1', name: '承認者' }],
        lockVersion: 3,
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      },
    };
    const input = inputOf(user);
    expect(input.subEmails).toBe('a@example.com\nb@example.com');
    expect(subEmailList(input.subEmails)).toEqual(['a@example.com', 'b@example.com']);
    expect(toUpdateAttributes(input, 3)).toEqual({
      lockVersion: 3,
      loginId: 'tanaka01',
      name: '田中 一郎',
      email: 'tanaka@example.com',
      subEmails: ['a@example.com', 'b@example.com'],
      mobilePhone: null,
      isAdmin: true,
      systemLinkId: 'EXT-1',
      groupIds: [GROUP],
      roleIds: ['r1'],
    });
  });
});

describe('serverProblems', () => {
  it('puts each field error on its form field, a sub e-mail item on subEmails', () => {
    expect(
      serverProblems([
        { code: 'LOGIN_ID_TAKEN', source: { pointer: '/data/attributes/loginId' } },
        { code: 'EMAIL_INVALID', source: { pointer: '/data/attributes/subEmails/1' } },
        { code: 'USER_GROUP_REQUIRED', source: { pointer: '/data/attributes/groupIds' } },
        { code: 'UPDATED_BY_ANOTHER_USER' },
      ]),
    ).toEqual({
      loginId: [{ code: 'LOGIN_ID_TAKEN' }],
      subEmails: [{ code: 'EMAIL_INVALID' }],
      groupIds: [{ code: 'USER_GROUP_REQUIRED' }],
    });
  });
});
