import { AppError, type ErrorCode, type FieldError } from '../../http/errors.ts';

/** The most sub e-mail addresses a user may have (the spec does not say; three covers a work, a home and a team address). */
export const MAX_SUB_EMAILS = 3;
export const LOGIN_ID_LENGTH = { min: 5, max: 100 } as const;
export const NAME_MAX = 100;
export const SYSTEM_LINK_ID_MAX = 100;

// The same practical check as ajv's "email" format: something@host.tld without spaces.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const MOBILE = /^[0-9]{10,11}$/;

/** Where a field of a user body lives, as a JSON pointer (CSV import maps these to columns). */
export const userPointer = (field: string) => `/data/attributes/${field}`;

/** The user fields an administrator (or a CSV row) supplies; any of them may be absent in an update. */
export interface UserFields {
  loginId?: string;
  name?: string;
  email?: string;
  subEmails?: string[];
  mobilePhone?: string | null;
  systemLinkId?: string | null;
}

/**
 * Every value rule of a user's own fields, reported at once: the API's schema checks most of these already, but the
 * CSV import calls the service directly and needs the same answers with specific codes.
 */
export function userFieldViolations(fields: UserFields): FieldError[] {
  const problems: FieldError[] = [];
  const add = (code: FieldError['code'], field: string, params?: FieldError['params']) =>
    problems.push({ code, pointer: userPointer(field), ...(params ? { params } : {}) });
  if (fields.loginId !== undefined) {
    const length = [...fields.loginId].length;
    if (length < LOGIN_ID_LENGTH.min || length > LOGIN_ID_LENGTH.max || /\s/.test(fields.loginId)) {
      add('LOGIN_ID_INVALID', 'loginId', { ...LOGIN_ID_LENGTH });
    }
  }
  if (fields.name !== undefined && (fields.name.trim() === '' || [...fields.name].length > NAME_MAX)) {
    add('VALIDATION_FAILED', 'name');
  }
  if (fields.email !== undefined && (!EMAIL.test(fields.email) || fields.email.length > 254)) {
    add('EMAIL_INVALID', 'email');
  }
  if (fields.subEmails !== undefined) {
    if (fields.subEmails.length > MAX_SUB_EMAILS) add('SUB_EMAIL_LIMIT', 'subEmails', { max: MAX_SUB_EMAILS });
    fields.subEmails.forEach((address, index) => {
      if (!EMAIL.test(address) || address.length > 254) add('EMAIL_INVALID', `subEmails/${index}`);
    });
  }
  if (fields.mobilePhone !== undefined && fields.mobilePhone !== null && !MOBILE.test(fields.mobilePhone)) {
    add('MOBILE_PHONE_INVALID', 'mobilePhone');
  }
  if (fields.systemLinkId && fields.systemLinkId.length > SYSTEM_LINK_ID_MAX) add('VALIDATION_FAILED', 'systemLinkId');
  return problems;
}

/** True for PostgreSQL's unique violation of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint?: string; message?: string };
  return e.code === '23505' && (e.constraint === constraint || Boolean(e.message?.includes(constraint)));
}

/**
 * Runs a write and turns a unique violation of a listed constraint into its coded error. With `checkedBefore` the
 * caller already looked for the value in the same transaction, so a violation can only be another request that
 * registered it meanwhile: 409 REGISTERED_BY_ANOTHER_USER (spec §8 "Registered by another user.") at the field's
 * pointer. Without it (no check before the write) the constraint's own code answers, e.g. 422 SYSTEM_LINK_ID_TAKEN.
 */
export async function uniquely<T>(
  write: () => Promise<T>,
  constraints: Record<string, { code: ErrorCode; pointer: string }>,
  options: { checkedBefore?: boolean } = {},
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    for (const [name, { code, pointer }] of Object.entries(constraints)) {
      if (!isUniqueViolation(error, name)) continue;
      if (options.checkedBefore) {
        throw new AppError('REGISTERED_BY_ANOTHER_USER', { pointer, params: { taken: code }, cause: error });
      }
      throw new AppError(code, { pointer, cause: error });
    }
    throw error;
  }
}

/** The unique constraints of users, groups and roles and the error each one means. */
export const UNIQUE_USER = {
  users_login_id_unique: { code: 'LOGIN_ID_TAKEN', pointer: '/data/attributes/loginId' },
  users_system_link_id_unique: { code: 'SYSTEM_LINK_ID_TAKEN', pointer: '/data/attributes/systemLinkId' },
} as const;
export const UNIQUE_GROUP = {
  groups_organization_id_name_unique: { code: 'GROUP_NAME_TAKEN', pointer: '/data/attributes/name' },
  groups_system_link_id_unique: { code: 'SYSTEM_LINK_ID_TAKEN', pointer: '/data/attributes/systemLinkId' },
} as const;
export const UNIQUE_ROLE = {
  roles_organization_id_name_unique: { code: 'ROLE_NAME_TAKEN', pointer: '/data/attributes/name' },
  roles_system_link_id_unique: { code: 'SYSTEM_LINK_ID_TAKEN', pointer: '/data/attributes/systemLinkId' },
} as const;
