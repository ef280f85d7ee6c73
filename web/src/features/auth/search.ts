/**
 * Search params of the sign-in screens. The router keeps every query value a plain string (router.tsx), so each
 * validator only picks the keys a screen knows and drops empty ones.
 */
type Raw = Record<string, unknown>;

function text(raw: Raw, key: string): string | undefined {
  const value = raw[key];
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export interface LoginSearch {
  redirect?: string;
  /** "1" after an inactivity timeout. */
  timeout?: string;
  invitationToken?: string;
  /** Prefilled user ID (after sign-up or a password reset). */
  loginId?: string;
}

export function validateLoginSearch(raw: Raw): LoginSearch {
  return {
    redirect: text(raw, 'redirect'),
    timeout: text(raw, 'timeout'),
    invitationToken: text(raw, 'invitationToken'),
    loginId: text(raw, 'loginId'),
  };
}

export interface SignUpSearch {
  invitationToken?: string;
  /** Where the sign-in after sign-up returns to (the workspace join page). */
  redirect?: string;
}

export function validateSignUpSearch(raw: Raw): SignUpSearch {
  return { invitationToken: text(raw, 'invitationToken'), redirect: text(raw, 'redirect') };
}

/** The initial and expired password changes: the user ID from the sign-in attempt and where to go afterwards. */
export interface PasswordChangeSearch {
  loginId?: string;
  redirect?: string;
  /** The terms consent the sign-in said is owed (`first` or `revised`): asked up front. */
  terms?: string;
}

export function validatePasswordChangeSearch(raw: Raw): PasswordChangeSearch {
  return { loginId: text(raw, 'loginId'), redirect: text(raw, 'redirect'), terms: text(raw, 'terms') };
}

export interface ResetSearch {
  token?: string;
}

export function validateResetSearch(raw: Raw): ResetSearch {
  return { token: text(raw, 'token') };
}
