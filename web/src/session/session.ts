import { createAnonymousClient, createAuthenticatedClient, createOneTimeClient } from '../api/clients.ts';
import { unwrap } from '../api/errors.ts';
import { createQueryClient } from '../api/query.ts';
import { loginLocation, SessionGuard, type SessionEndReason } from './guard.ts';
import { TokenStore, type TokenPair } from './tokens.ts';

/** Navigation is bound late, once the router exists. */
let navigate: (to: string) => void = (to) => window.location.assign(to);
export function setNavigator(fn: (to: string) => void): void {
  navigate = fn;
}

export const queryClient = createQueryClient();
export const anonymousApi = createAnonymousClient();

async function refresh(pair: TokenPair): Promise<TokenPair> {
  const body = unwrap(await anonymousApi.PATCH('/auth', { body: { data: { type: 'Auth', attributes: pair } } }));
  return body.data.attributes;
}

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
  refresh,
  onSessionEnded: sessionEnded('/login'),
});

/** One-time (guest) users: tokens in sessionStorage; an ended session goes back to the guest sign-in. */
export const oneTimeGuard = new SessionGuard({
  store: new TokenStore(sessionStorage, 'keiyaku.onetime'),
  now: () => Date.now(),
  refresh,
  onSessionEnded: sessionEnded('/onetime/auth'),
});

export const api = createAuthenticatedClient(sessionGuard);
export const oneTimeApi = createOneTimeClient(oneTimeGuard);
