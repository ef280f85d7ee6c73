import type { ErrorCode } from '../../api/errors.ts';

/**
 * The server's input rules for the sign-in screens, checked on the client before a request is sent. Each problem
 * carries the code the server would answer for it, so a client-side problem and a server field error read alike.
 * The server reports schema violations (a missing field, a user ID of the wrong length, an e-mail address it
 * cannot parse) only as VALIDATION_FAILED; `reason` names the precise rule so the UI can say which one.
 */
export interface Problem {
  code: ErrorCode;
  reason?: ProblemReason;
  params?: Record<string, string | number>;
}

export type ProblemReason = 'required' | 'tooLong' | 'loginIdLength' | 'emailFormat' | 'corporateNumberFormat';

/** Problems by field name; the names are the request attributes of openapi.yaml. */
export type Problems = Record<string, Problem[]>;

export const LOGIN_ID_MIN = 5;
export const LOGIN_ID_MAX = 100;
/** The default policy's minimum (core/auth/password-policy.ts); an organization may ask for more. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;

/** ajv-formats' "email" (full mode), the check openapi.yaml's `format: email` gets on the server. */
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/** Half-width printable ASCII without the space (core/auth/password-policy.ts). */
const HALF_WIDTH = /^[\x21-\x7e]+$/;

const required: Problem = { code: 'VALIDATION_FAILED', reason: 'required' };
const tooLong = (max: number): Problem => ({ code: 'VALIDATION_FAILED', reason: 'tooLong', params: { max } });

/** A required text of at most `max` characters (the schema's minLength 1 and maxLength). */
export function textProblems(value: string, max: number): Problem[] {
  if (value.length === 0) return [required];
  return value.length > max ? [tooLong(max)] : [];
}

/** A new user ID: 5 to 100 characters (LoginId in openapi.yaml). */
export function loginIdProblems(loginId: string): Problem[] {
  if (loginId.length === 0) return [required];
  if (loginId.length < LOGIN_ID_MIN || loginId.length > LOGIN_ID_MAX) {
    return [{ code: 'VALIDATION_FAILED', reason: 'loginIdLength', params: { min: LOGIN_ID_MIN, max: LOGIN_ID_MAX } }];
  }
  return [];
}

/**
 * A new password, in the server's order: half-width printable ASCII, at least 8 characters, a lowercase letter, a
 * digit, and not containing the user ID (case-insensitive). An empty field is only "required".
 */
export function passwordProblems(password: string, loginId: string, minLength = PASSWORD_MIN): Problem[] {
  if (password.length === 0) return [required];
  if (password.length > PASSWORD_MAX) return [tooLong(PASSWORD_MAX)];
  const problems: Problem[] = [];
  if (!HALF_WIDTH.test(password)) problems.push({ code: 'PASSWORD_NOT_HALF_WIDTH' });
  if (password.length < minLength) problems.push({ code: 'PASSWORD_TOO_SHORT', params: { min: minLength } });
  if (!/[a-z]/.test(password)) problems.push({ code: 'PASSWORD_REQUIRES_LOWERCASE' });
  if (!/[0-9]/.test(password)) problems.push({ code: 'PASSWORD_REQUIRES_DIGIT' });
  if (loginId && password.toLowerCase().includes(loginId.toLowerCase())) {
    problems.push({ code: 'PASSWORD_CONTAINS_USER_ID' });
  }
  return problems;
}

/** The confirmation repeats the password exactly. */
export function confirmationProblems(password: string, confirmation: string): Problem[] {
  if (confirmation.length === 0) return [required];
  return password === confirmation ? [] : [{ code: 'PASSWORD_CONFIRMATION_MISMATCH' }];
}

export function emailProblems(email: string): Problem[] {
  if (email.length === 0) return [required];
  if (email.length > EMAIL_MAX) return [tooLong(EMAIL_MAX)];
  return EMAIL.test(email) ? [] : [{ code: 'VALIDATION_FAILED', reason: 'emailFormat' }];
}

/**
 * A Japanese corporate number: 13 digits whose first is a check digit over the other twelve (with Pn the n-th digit
 * from the right and Qn = 1 for odd n, 2 for even n: check = 9 - (sum Pn*Qn mod 9)), as
 * core/modules/organizations/corporate-number.ts checks it.
 */
export function isValidCorporateNumber(value: string): boolean {
  if (!/^[0-9]{13}$/.test(value)) return false;
  const body = value.slice(1);
  let sum = 0;
  for (let n = 1; n <= 12; n++) sum += Number(body[12 - n]) * (n % 2 === 1 ? 1 : 2);
  return Number(value[0]) === 9 - (sum % 9);
}

export function corporateNumberProblems(value: string): Problem[] {
  if (value.length === 0) return [required];
  if (!/^[0-9]{13}$/.test(value)) return [{ code: 'CORPORATE_NUMBER_INVALID', reason: 'corporateNumberFormat' }];
  return isValidCorporateNumber(value) ? [] : [{ code: 'CORPORATE_NUMBER_INVALID' }];
}

/** The terms in force must be agreed to (acceptTermId). */
export function consentProblems(agreed: boolean): Problem[] {
  return agreed ? [] : [{ code: 'TERMS_NOT_AGREED' }];
}

/** Drops the fields without problems; an empty result means the input may be sent. */
export function collect(problems: Problems): Problems {
  return Object.fromEntries(Object.entries(problems).filter(([, list]) => list.length > 0));
}

export function hasProblems(problems: Problems): boolean {
  return Object.values(problems).some((list) => list.length > 0);
}

export interface SignInInput {
  loginId: string;
  password: string;
}

/** Sign-in checks presence and length only; the server answers the same for every wrong pair. */
export function validateSignIn(input: SignInInput): Problems {
  return collect({
    loginId: textProblems(input.loginId, LOGIN_ID_MAX),
    password: textProblems(input.password, PASSWORD_MAX),
  });
}

export interface SignUpInput {
  organizationName: string;
  corporateNumber: string;
  /** "Not subject to a corporate number": the number is left out. */
  noCorporateNumber: boolean;
  loginId: string;
  userName: string;
  email: string;
  password: string;
  passwordConfirmation: string;
  agreed: boolean;
}

export function validateSignUp(input: SignUpInput): Problems {
  return collect({
    organizationName: textProblems(input.organizationName, NAME_MAX),
    corporateNumber: input.noCorporateNumber ? [] : corporateNumberProblems(input.corporateNumber),
    loginId: loginIdProblems(input.loginId),
    userName: textProblems(input.userName, NAME_MAX),
    email: emailProblems(input.email),
    password: passwordProblems(input.password, input.loginId),
    passwordConfirmation: confirmationProblems(input.password, input.passwordConfirmation),
    acceptTermId: consentProblems(input.agreed),
  });
}

export interface PasswordChangeInput {
  loginId: string;
  currentPassword: string;
  password: string;
  passwordConfirmation: string;
  /** Only when the server asked for consent to the terms in force. */
  agreed?: boolean;
}

/** The temporary or expired password change: the new one must also differ from the current one. */
export function validatePasswordChange(input: PasswordChangeInput): Problems {
  const password = passwordProblems(input.password, input.loginId);
  if (input.password && input.password === input.currentPassword) password.push({ code: 'PASSWORD_SAME_AS_CURRENT' });
  return collect({
    loginId: textProblems(input.loginId, LOGIN_ID_MAX),
    currentPassword: textProblems(input.currentPassword, PASSWORD_MAX),
    password,
    passwordConfirmation: confirmationProblems(input.password, input.passwordConfirmation),
    acceptTermId: input.agreed === undefined ? [] : consentProblems(input.agreed),
  });
}

/** The reset link does not tell the user ID, so the server alone checks that the password does not contain it. */
export function validatePasswordReset(input: { password: string; passwordConfirmation: string }): Problems {
  return collect({
    password: passwordProblems(input.password, ''),
    passwordConfirmation: confirmationProblems(input.password, input.passwordConfirmation),
  });
}

export function validatePasswordResetRequest(input: { loginId: string; email: string }): Problems {
  return collect({ loginId: textProblems(input.loginId, LOGIN_ID_MAX), email: emailProblems(input.email) });
}

export function validateUserIdReminder(input: { email: string }): Problems {
  return collect({ email: emailProblems(input.email) });
}
