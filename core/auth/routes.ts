import { perAddress, perIp, perIpAnd } from '../access/rate-limits.ts';
import type { ApiRouter, ResponseCookie } from '../contract/router.ts';
import { AppError } from '../http/errors.ts';
import type { AccountRecovery } from './recovery.ts';
import { IDLE_TIMEOUT_MS, type Sessions, type TokenPair } from './sessions.ts';
import type { SignIn } from './sign-in.ts';

/**
 * The web workbench's refresh token lives in this HttpOnly cookie, not in localStorage where any script on the page
 * (an XSS, a compromised dependency) could read it; it goes only to the /auth operations.
 */
export const REFRESH_COOKIE = 'keiyaku_refresh_token';
const REFRESH_COOKIE_PATH = '/core/v1/auth';
/**
 * The server ends an idle session after 30 minutes, but a refresh happens only when the access token (at most
 * 60 minutes) has expired, so the cookie must outlive both; the server's checks, not this, end a session.
 */
const REFRESH_COOKIE_MAX_AGE_MS = IDLE_TIMEOUT_MS + 60 * 60_000 + 5 * 60_000;

type Delivery = 'body' | 'cookie' | undefined;

/** The response of sign-in and refresh: the pair in the body, or the access token in the body and the refresh token in the cookie. */
export function authResult(pair: TokenPair, delivery: Delivery) {
  if (delivery !== 'cookie') return { body: { data: { type: 'Auth', attributes: pair } } };
  const cookie: ResponseCookie = {
    name: REFRESH_COOKIE,
    value: pair.refreshToken,
    path: REFRESH_COOKIE_PATH,
    maxAgeMs: REFRESH_COOKIE_MAX_AGE_MS,
  };
  return {
    body: { data: { type: 'Auth', attributes: { authorizationToken: pair.authorizationToken } } },
    cookies: [cookie],
  };
}

/** Binds the sign-in, session and account-recovery operations. */
export function authRoutes(api: ApiRouter, signIn: SignIn, sessions: Sessions, recovery: AccountRecovery): void {
  // Limits per caller IP on top of the per-ID lock (core/auth/throttle.ts); the two recovery forms share the budget
  // of mails to one e-mail address.
  const signInLimits = { rateLimit: [perIp('signInPerIp'), perIpAnd('signInPerIpAndLoginId', 'loginId')] };
  const recoveryLimits = { rateLimit: [perIp('recoveryPerIp'), perAddress('recoveryMailPerAddress')] };
  const resetLinkLimits = { rateLimit: [perIp('resetLinkPerIp')] };

  api.operation('signIn', signInLimits, async ({ body, req }) => {
    const { refreshTokenDelivery, ...credentials } = body.data.attributes;
    return authResult(await signIn.signIn(credentials, req), refreshTokenDelivery);
  });

  // CSRF: a cross-site page cannot use the cookie here. SameSite=Strict keeps the browser from sending it, and the
  // body must also carry the caller's access token (expired or not), which another site's page cannot read.
  api.operation('refreshAuth', async ({ body, req, cookie }) => {
    const { authorizationToken, refreshToken, refreshTokenDelivery } = body.data.attributes;
    const fromCookie = refreshToken === undefined;
    const presented = refreshToken ?? cookie(REFRESH_COOKIE);
    if (!presented) throw new AppError('REFRESH_TOKEN_INVALID');
    const pair = await sessions.refresh({ authorizationToken, refreshToken: presented }, req);
    return authResult(pair, fromCookie ? 'cookie' : refreshTokenDelivery);
  });

  api.operation('signOut', async ({ principal, req }) => {
    await signIn.signOut(principal, req);
    // Cleared whoever signs out: a client that never had the cookie ignores it.
    return { status: 204, cookies: [{ name: REFRESH_COOKIE, value: null, path: REFRESH_COOKIE_PATH }] };
  });

  api.operation('changePasswordAndSignIn', signInLimits, async ({ body, req }) => {
    const { refreshTokenDelivery, ...input } = body.data.attributes;
    return authResult(await signIn.changePasswordAndSignIn(input, req), refreshTokenDelivery);
  });

  api.operation('requestPasswordReset', recoveryLimits, async ({ body, req }) => {
    await recovery.requestPasswordReset(body.data.attributes, req);
    return { status: 202 };
  });

  api.operation('verifyPasswordResetToken', resetLinkLimits, async ({ body }) => {
    await recovery.verifyResetToken(body.data.attributes.token);
    return { status: 204 };
  });

  api.operation('resetPassword', resetLinkLimits, async ({ body, req }) => {
    await recovery.resetPassword(body.data.attributes, req);
    return { status: 204 };
  });

  api.operation('requestUserIdReminder', recoveryLimits, async ({ body, req }) => {
    await recovery.remindUserId(body.data.attributes, req);
    return { status: 202 };
  });
}
