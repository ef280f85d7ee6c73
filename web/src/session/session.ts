import { createAnonymousClient, createAuthenticatedClient, createOneTimeClient } from '../api/clients.ts';
import { unwrap } from '../api/errors.ts';
import { createQueryClient } from '../api/query.ts';
import { loginLocation, SessionGuard, type SessionEndReason } from './guard.ts';
import { acrossTabs } from './refresh-lock.ts';
import { TokenStore, type TokenPair } from './tokens.ts';

/** Navigation is bound late, once the router exists. */
let navigate: (to: string) => void = (to) => window.location.assign(to);
export function setNavigator(fn: (to: string) => void): void {
  navigate = fn;
}

export const queryClient = createQueryClient();
export const anonymousApi = createAnonymousClient();

/**
 * The one-time (guest) flows keep both tokens in their tab's sessionStorage and refresh with their own operation
 * (PATCH /onetime/auth, refreshOneTimeAuth): the refresh token in the body, never the member's cookie.
 */
async function refreshOneTime(pair: TokenPair): Promise<TokenPair> {
  if (!pair.refreshToken) throw new Error('REFRESH_TOKEN_MISSING');
  const body = unwrap(
    await anonymousApi.PATCH('/onetime/auth', {
      body: { data: { type: 'OneTimeAuth', attributes: { refreshToken: pair.refreshToken } } },
    }),
  );
  return body.data.attributes;
}

/**
 * A signed-in member's refresh token travels only in its HttpOnly cookie, which the browser sends to /core/v1/auth
 * by itself. A pair stored before the cookie existed sends its refresh token once and gets the cookie back.
 */
async function refreshWithCookie(pair: TokenPair): Promise<TokenPair> {
  const attributes = { ...pair, refreshTokenDelivery: 'cookie' as const };
  const body = unwrap(await anonymousApi.PATCH('/auth', { body: { data: { type: 'Auth', attributes } } }));
  return body.data.attributes;
}

/** What sign-in and the password change that signs in add, so the refresh token comes as the cookie. */
export const COOKIE_DELIVERY = { refreshTokenDelivery: 'cookie' } as const;

function currentUri(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/** Ending a session clears the cache and sends the user to sign in, keeping where they were. */
function sessionEnded(login: string) {
  return (reason: SessionEndReason) => {
    queryClient.clear();
    navigate(loginLocation({ redirect: currentUri(), timeout: reason === 'timeout' }).replace('/login', login));
  };
}

export const sessionGuard = new SessionGuard({
  store: new TokenStore(localStorage, 'keiyaku'),
  now: () => Date.now(),
  refresh: refreshWithCookie,
  // Tabs share the member's tokens and cookie: one refreshes at a time, the others take its new access token.
  exclusive: acrossTabs,
  onSessionEnded: sessionEnded('/login'),
});

/** One-time (guest) users: tokens in sessionStorage; an ended session goes back to the guest sign-in. */
export const oneTimeGuard = new SessionGuard({
  store: new TokenStore(sessionStorage, 'keiyaku.onetime'),
  now: () => Date.now(),
  refresh: refreshOneTime,
  onSessionEnded: sessionEnded('/onetime/auth'),
});

export const api = createAuthenticatedClient(sessionGuard);
export const oneTimeApi = createOneTimeClient(oneTimeGuard);
