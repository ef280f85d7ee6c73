import type { ErrorCode } from '../../api/errors.ts';
import type { User } from './api/get-user.ts';
import type { UserCreateAttributes } from './api/create-user.ts';
import type { UserUpdateAttributes } from './api/update-user.ts';

/**
 * The server's rules for a user (openapi.yaml UserCreateRequest, core's user validation), checked before sending.
 * Each problem carries the code the server answers, so a client problem and a server field error read alike;
 * `reason` names a schema rule the server reports only as VALIDATION_FAILED.
 */
export interface Problem {
  code: ErrorCode;
  reason?: 'required' | 'tooLong';
  params?: Record<string, string | number>;
}
export type Problems = Record<string, Problem[]>;

export const LOGIN_ID_MIN = 5;
export const LOGIN_ID_MAX = 100;
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
export const SUB_EMAILS_MAX = 3;
export const SYSTEM_LINK_ID_MAX = 100;

/** ajv-formats' "email" (full mode): what `format: email` accepts on the server. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/** Mobile phone: digits only, no hyphens, 10 or 11 digits. */
const MOBILE_PHONE = /^[0-9]{10,11}$/;

/** The form's values: sub e-mails as one address per line, optional texts as '' when empty. */
export interface UserInput {
  loginId: string;
  name: string;
  email: string;
  subEmails: string;
  mobilePhone: string;
  isAdmin: boolean;
  systemLinkId: string;
  groupIds: string[];
  roleIds: string[];
}

export const EMPTY_USER: UserInput = {
  loginId: '',
  name: '',
  email: '',
  subEmails: '',
  mobilePhone: '',
  isAdmin: false,
  systemLinkId: '',
  groupIds: [],
  roleIds: [],
};

const required: Problem = { code: 'VALIDATION_FAILED', reason: 'required' };
const tooLong = (max: number): Problem => ({ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max } });

/** The sub e-mail addresses of the textarea: one per line, blank lines ignored. */
export function subEmailList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

function emailProblems(email: string): Problem[] {
  if (email.length > EMAIL_MAX) return [tooLong(EMAIL_MAX)];
  return EMAIL.test(email) ? [] : [{ code: 'EMAIL_INVALID' }];
}

export function validateUser(input: UserInput): Problems {
  const loginId = input.loginId.trim();
  const subEmails = subEmailList(input.subEmails);
  const problems: Problems = {
    loginId:
      loginId.length === 0
        ? [required]
        : loginId.length < LOGIN_ID_MIN || loginId.length > LOGIN_ID_MAX
          ? [{ code: 'LOGIN_ID_INVALID', params: { min: LOGIN_ID_MIN, max: LOGIN_ID_MAX } }]
          : [],
    name: input.name.trim().length === 0 ? [required] : input.name.trim().length > NAME_MAX ? [tooLong(NAME_MAX)] : [],
    email: input.email.trim().length === 0 ? [required] : emailProblems(input.email.trim()),
    subEmails:
      subEmails.length > SUB_EMAILS_MAX
        ? [{ code: 'SUB_EMAIL_LIMIT', params: { max: SUB_EMAILS_MAX } }]
        : subEmails.some((email) => emailProblems(email).length > 0)
          ? [{ code: 'EMAIL_INVALID' }]
          : [],
    mobilePhone:
      input.mobilePhone.trim() === '' || MOBILE_PHONE.test(input.mobilePhone.trim())
        ? []
        : [{ code: 'MOBILE_PHONE_INVALID' }],
    systemLinkId: input.systemLinkId.trim().length > SYSTEM_LINK_ID_MAX ? [tooLong(SYSTEM_LINK_ID_MAX)] : [],
    groupIds: input.groupIds.length === 0 ? [{ code: 'USER_GROUP_REQUIRED' }] : [],
  };
  return Object.fromEntries(Object.entries(problems).filter(([, list]) => list.length > 0));
}

export function hasProblems(problems: Problems): boolean {
  return Object.values(problems).some((list) => list.length > 0);
}

/** The request attributes of a new user. */
export function toCreateAttributes(input: UserInput): UserCreateAttributes {
  return {
    loginId: input.loginId.trim(),
    name: input.name.trim(),
    email: input.email.trim(),
    subEmails: subEmailList(input.subEmails),
    mobilePhone: input.mobilePhone.trim() || null,
    isAdmin: input.isAdmin,
    systemLinkId: input.systemLinkId.trim() || null,
    groupIds: input.groupIds,
    roleIds: input.roleIds,
  };
}

/** The request attributes of an edit: everything the form holds, with the lockVersion read with the user. */
export function toUpdateAttributes(input: UserInput, lockVersion: number): UserUpdateAttributes {
  return { ...toCreateAttributes(input), lockVersion };
}

/** The form's values for an existing user. */
export function inputOf(user: User): UserInput {
  const a = user.attributes;
  return {
    loginId: a.loginId,
    name: a.name,
    email: a.email,
    subEmails: a.subEmails.join('\n'),
    mobilePhone: a.mobilePhone ?? '',
    isAdmin: a.isAdmin,
    systemLinkId: a.systemLinkId ?? '',
    groupIds: a.groups.map((group) => group.id),
    roleIds: a.roles.map((role) => role.id),
  };
}

/**
 * A 422's field errors as problems by form field: `/data/attributes/subEmails/1` belongs to subEmails, and the
 * server's parameters (limits) come along when it sent them.
 */
export function serverProblems(errors: { code: ErrorCode; source?: { pointer: string } }[]): Problems {
  const problems: Problems = {};
  for (const error of errors) {
    const pointer = error.source?.pointer;
    if (!pointer) continue;
    const field = pointer.replace(/^\/data\/attributes\//, '').split('/')[0] || 'data';
    (problems[field] ??= []).push({ code: error.code });
  }
  return problems;
}
