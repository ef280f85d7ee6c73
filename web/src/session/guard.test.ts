import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenPair } from '../testing/fixtures.ts';
import {
  isJoinPath,
  isPublicPath,
  isSessionEndedError,
  loginLocation,
  SESSION_TIMEOUT_MS,
  SessionEndedError,
  SessionGuard,
} from './guard.ts';
import { TokenStore, type TokenPair } from './tokens.ts';

const EXP = 1_700_000_000; // seconds
const AT_EXP = EXP * 1000; // the millisecond the access token expires

/** A guard over a real Storage with a settable clock and recorded refreshes and session ends. */
function setup(options: { storage?: Storage; refresh?: (pair: TokenPair) => Promise<TokenPair> } = {}) {
  const clock = { now: AT_EXP - 60_000 };
  const storage = options.storage ?? localStorage;
  const store = new TokenStore(storage, 'keiyaku');
  const refresh = vi.fn(options.refresh ?? (async () => tokenPair(EXP + 3600, 'b')));
  const onSessionEnded = vi.fn();
  const guard = new SessionGuard({ store, now: () => clock.now, refresh, onSessionEnded });
  return { clock, storage, store, refresh, onSessionEnded, guard };
}

/** A promise settled from outside, to hold a refresh in flight. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

describe('SessionGuard storage', () => {
  it('stores the tokens and the activity timestamp in localStorage for the main guard on sign-in', () => {
    const { guard, clock } = setup();
    guard.signedIn(tokenPair(EXP));
    expect(JSON.parse(localStorage.getItem('keiyaku.tokens')!).accessToken.claims).toMatchObject({ exp: EXP });
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(clock.now));
    expect(sessionStorage.length).toBe(0);
  });

  it('stores the tokens and the activity timestamp in sessionStorage for the one-time guard', () => {
    const { guard, clock } = setup({ storage: sessionStorage });
    guard.signedIn(tokenPair(EXP));
    expect(sessionStorage.getItem('keiyaku.tokens')).not.toBeNull();
    expect(sessionStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(clock.now));
    expect(localStorage.length).toBe(0);
  });

  it('exposes the access-token claims with uid as a string, and none without tokens', () => {
    const { guard } = setup();
    expect(guard.claims()).toBeNull();
    guard.signedIn(tokenPair(EXP));
    expect(guard.claims()).toMatchObject({ exp: EXP, uid: '42' });
  });

  it('clear removes the tokens and the timestamp', () => {
    const { guard } = setup();
    guard.signedIn(tokenPair(EXP));
    guard.clear();
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
  });
});

describe('SessionGuard.accessToken', () => {
  it('returns the stored token while exp is after now in seconds, without refreshing', async () => {
    const { guard, clock, refresh, onSessionEnded } = setup();
    const pair = tokenPair(EXP);
    guard.signedIn(pair);
    clock.now = AT_EXP - 1; // 999 ms before exp: still the previous second
    await expect(guard.accessToken()).resolves.toBe(pair.authorizationToken);
    expect(refresh).not.toHaveBeenCalled();
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('refreshes at exp exactly (no skew), sends the stored pair and stores the new one', async () => {
    const { guard, clock, refresh, store } = setup();
    const old = tokenPair(EXP);
    guard.signedIn(old);
    clock.now = AT_EXP;
    const fresh = tokenPair(EXP + 3600, 'b');
    refresh.mockResolvedValueOnce(fresh);
    await expect(guard.accessToken()).resolves.toBe(fresh.authorizationToken);
    expect(refresh).toHaveBeenCalledExactlyOnceWith({
      authorizationToken: old.authorizationToken,
      refreshToken: old.refreshToken,
    });
    expect(store.read()).toEqual({
      accessToken: { accessToken: fresh.authorizationToken, claims: { exp: EXP + 3600, uid: '42', name: 'b' } },
      refreshToken: { refreshToken: fresh.refreshToken },
    });
    // The refreshed token is used from then on.
    await expect(guard.accessToken()).resolves.toBe(fresh.authorizationToken);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes a token that expired some time ago', async () => {
    const { guard, clock, refresh } = setup();
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP + 10 * 60_000;
    guard.touch();
    await expect(guard.accessToken()).resolves.toBe(tokenPair(EXP + 3600, 'b').authorizationToken);
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('shares one refresh between concurrent calls', async () => {
    const pending = deferred<TokenPair>();
    const { guard, clock, refresh } = setup({ refresh: () => pending.promise });
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP;
    const calls = [guard.accessToken(), guard.accessToken(), guard.accessToken()];
    const fresh = tokenPair(EXP + 3600, 'b');
    pending.resolve(fresh);
    await expect(Promise.all(calls)).resolves.toEqual(Array(3).fill(fresh.authorizationToken));
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('starts a new refresh once the shared one has settled and the new token expires in turn', async () => {
    const { guard, clock, refresh, store } = setup();
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP;
    await guard.accessToken();
    clock.now = (EXP + 3600) * 1000;
    store.touch(clock.now - 60_000); // the user kept working all along
    refresh.mockResolvedValueOnce(tokenPair(EXP + 7200, 'c'));
    await expect(guard.accessToken()).resolves.toBe(tokenPair(EXP + 7200, 'c').authorizationToken);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('on refresh failure clears tokens and timestamp, ends the session as refresh-failed and rejects', async () => {
    const { guard, clock, onSessionEnded } = setup({
      refresh: () => Promise.reject(new Error('REFRESH_TOKEN_INVALID')),
    });
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP;
    const result = guard.accessToken();
    await expect(result).rejects.toBeInstanceOf(SessionEndedError);
    await expect(result).rejects.toMatchObject({ reason: 'refresh-failed' });
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('refresh-failed');
  });

  it('ends the session once when a refresh shared by concurrent calls fails, and rejects them all', async () => {
    const pending = deferred<TokenPair>();
    const { guard, clock, onSessionEnded, refresh } = setup({ refresh: () => pending.promise });
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP;
    const calls = [guard.accessToken(), guard.accessToken()].map((call) => call.catch((error: unknown) => error));
    pending.reject(new Error('REFRESH_TOKEN_REUSED'));
    const errors = await Promise.all(calls);
    for (const error of errors) expect(error).toEqual(new SessionEndedError('refresh-failed'));
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('refresh-failed');
  });

  it('treats a refresh answer it cannot read as a failed refresh', async () => {
    const { guard, clock, onSessionEnded } = setup({
      refresh: async () => ({ authorizationToken: 'not-a-jwt', refreshToken: 'r' }),
    });
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP;
    await expect(guard.accessToken()).rejects.toMatchObject({ reason: 'refresh-failed' });
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('refresh-failed');
  });

  it('after more than 30 minutes since the last activity clears tokens and timestamp and ends as timeout', async () => {
    const { guard, clock, refresh, onSessionEnded } = setup();
    guard.signedIn(tokenPair(EXP));
    clock.now += SESSION_TIMEOUT_MS + 1;
    const result = guard.accessToken();
    await expect(result).rejects.toEqual(new SessionEndedError('timeout'));
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('timeout');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('is still fine at exactly 30 minutes (1,800,000 ms) since the last activity', async () => {
    const { guard, clock, onSessionEnded } = setup();
    const pair = tokenPair(EXP + 3600);
    guard.signedIn(pair);
    clock.now += 1_800_000;
    expect(SESSION_TIMEOUT_MS).toBe(1_800_000);
    await expect(guard.accessToken()).resolves.toBe(pair.authorizationToken);
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('checks the inactivity limit before the expiry: a timed-out session is not refreshed', async () => {
    const { guard, clock, refresh, onSessionEnded } = setup();
    guard.signedIn(tokenPair(EXP));
    clock.now = AT_EXP + SESSION_TIMEOUT_MS;
    await expect(guard.accessToken()).rejects.toMatchObject({ reason: 'timeout' });
    expect(refresh).not.toHaveBeenCalled();
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('timeout');
  });

  it('without tokens ends the session as no-token', async () => {
    const { guard, refresh, onSessionEnded } = setup();
    await expect(guard.accessToken()).rejects.toEqual(new SessionEndedError('no-token'));
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('no-token');
    expect(refresh).not.toHaveBeenCalled();
  });

  it('without an activity timestamp ends the session as no-token: the inactivity limit cannot be skipped', async () => {
    const { guard, store, onSessionEnded } = setup();
    store.save(tokenPair(EXP));
    await expect(guard.accessToken()).rejects.toEqual(new SessionEndedError('no-token'));
    expect(store.read()).toBeNull();
    expect(onSessionEnded).toHaveBeenCalledExactlyOnceWith('no-token');
  });
});

describe('SessionGuard across tabs', () => {
  /** Two tabs: guards over the same localStorage, refreshing under one shared lock (as Web Locks would). */
  function twoTabs(refresh: (pair: TokenPair) => Promise<TokenPair>) {
    let queue: Promise<unknown> = Promise.resolve();
    const exclusive = <T>(fn: () => Promise<T>): Promise<T> => {
      const run = queue.then(fn);
      queue = run.catch(() => undefined);
      return run;
    };
    const clock = { now: AT_EXP };
    const shared = vi.fn(refresh);
    const tab = () => {
      const onSessionEnded = vi.fn();
      const guard = new SessionGuard({
        store: new TokenStore(localStorage, 'keiyaku'),
        now: () => clock.now,
        refresh: shared,
        exclusive,
        onSessionEnded,
      });
      return { guard, onSessionEnded };
    };
    return { clock, refresh: shared, one: tab(), two: tab() };
  }

  it('refreshes once for two tabs whose tokens expired together: the second takes the token the first stored', async () => {
    const fresh = { authorizationToken: tokenPair(EXP + 3600, 'b').authorizationToken };
    const { one, two, refresh } = twoTabs(async () => fresh);
    one.guard.signedIn({ authorizationToken: tokenPair(EXP).authorizationToken });
    const tokens = await Promise.all([one.guard.accessToken(), two.guard.accessToken()]);
    expect(tokens).toEqual([fresh.authorizationToken, fresh.authorizationToken]);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(refresh).toHaveBeenCalledWith({ authorizationToken: tokenPair(EXP).authorizationToken });
    expect(one.onSessionEnded).not.toHaveBeenCalled();
    expect(two.onSessionEnded).not.toHaveBeenCalled();
  });

  it('refreshes again in the second tab when what the first stored has expired too', async () => {
    let round = 0;
    const { one, two, refresh, clock } = twoTabs(async () => {
      round += 1;
      return { authorizationToken: tokenPair(EXP + round * 60, String(round)).authorizationToken };
    });
    one.guard.signedIn({ authorizationToken: tokenPair(EXP).authorizationToken });
    await one.guard.accessToken();
    clock.now = (EXP + 60) * 1000;
    one.guard.touch();
    await expect(two.guard.accessToken()).resolves.toBe(tokenPair(EXP + 120, '2').authorizationToken);
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it("ends the waiting tab's session too when the first tab's refresh was refused", async () => {
    const { one, two } = twoTabs(() => Promise.reject(new Error('REFRESH_TOKEN_REUSED')));
    one.guard.signedIn({ authorizationToken: tokenPair(EXP).authorizationToken });
    const results = await Promise.allSettled([one.guard.accessToken(), two.guard.accessToken()]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(one.onSessionEnded).toHaveBeenCalledExactlyOnceWith('refresh-failed');
    expect(two.onSessionEnded).toHaveBeenCalledExactlyOnceWith('refresh-failed');
  });
});

describe('SessionGuard activity', () => {
  it('touch refreshes the timestamp of a live session', () => {
    const { guard, clock, store } = setup();
    guard.signedIn(tokenPair(EXP));
    clock.now += 29 * 60_000;
    guard.touch();
    expect(store.timestamp()).toBe(clock.now);
    // Activity keeps the session alive beyond 30 minutes from sign-in.
    clock.now += 29 * 60_000;
    expect(guard.hasSession()).toBe(true);
  });

  it('touch does nothing without tokens', () => {
    const { guard } = setup();
    guard.touch();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
  });

  it('touch does not revive a session that has already timed out', async () => {
    const { guard, clock, store } = setup();
    guard.signedIn(tokenPair(EXP));
    const signedInAt = clock.now;
    clock.now += SESSION_TIMEOUT_MS + 1;
    guard.touch();
    expect(store.timestamp()).toBe(signedInAt);
    expect(guard.hasSession()).toBe(false);
    await expect(guard.accessToken()).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('hasSession needs tokens and a timestamp within 30 minutes; an expired access token still counts', () => {
    const { guard, clock, store } = setup();
    expect(guard.hasSession()).toBe(false);
    guard.signedIn(tokenPair(EXP));
    expect(guard.hasSession()).toBe(true);
    clock.now = AT_EXP + 1000; // access token expired, but refreshable
    guard.touch();
    expect(guard.hasSession()).toBe(true);
    clock.now += SESSION_TIMEOUT_MS;
    expect(guard.hasSession()).toBe(true);
    expect(guard.timedOut()).toBe(false);
    clock.now += 1;
    expect(guard.hasSession()).toBe(false);
    expect(guard.timedOut()).toBe(true);
    store.clearTimestamp();
    expect(guard.timedOut()).toBe(false);
    expect(guard.hasSession()).toBe(false);
  });
});

describe('SessionEndedError', () => {
  it('is an Error carrying the reason, recognised by isSessionEndedError', () => {
    const error = new SessionEndedError('timeout');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('SessionEndedError');
    expect(error.reason).toBe('timeout');
    expect(isSessionEndedError(error)).toBe(true);
    expect(isSessionEndedError(new Error('session ended: timeout'))).toBe(false);
    expect(isSessionEndedError('timeout')).toBe(false);
  });
});

describe('loginLocation', () => {
  const query = (location: string) => Object.fromEntries(new URL(location, 'http://x').searchParams);

  it('is plain /login without anything to pass', () => {
    expect(loginLocation({})).toBe('/login');
  });

  it('passes the original path and query as redirect', () => {
    const location = loginLocation({ redirect: '/business-flows/7?tab=documents&page=2' });
    expect(location).toBe('/login?redirect=%2Fbusiness-flows%2F7%3Ftab%3Ddocuments%26page%3D2');
    expect(query(location)).toEqual({ redirect: '/business-flows/7?tab=documents&page=2' });
  });

  it('adds the timeout flag when the session timed out', () => {
    expect(query(loginLocation({ redirect: '/organizations/a', timeout: true }))).toEqual({
      redirect: '/organizations/a',
      timeout: '1',
    });
    expect(query(loginLocation({ redirect: '/', timeout: false }))).toEqual({ redirect: '/' });
    expect(loginLocation({ timeout: true })).toBe('/login?timeout=1');
  });

  it('passes invitationToken for the join route', () => {
    expect(loginLocation({ invitationToken: 'inv-123' })).toBe('/login?invitationToken=inv-123');
  });

  it('never redirects back to the sign-in page itself', () => {
    expect(loginLocation({ redirect: '/login' })).toBe('/login');
    expect(loginLocation({ redirect: '/login?redirect=%2Fsso', timeout: true })).toBe('/login?timeout=1');
  });
});

describe('isPublicPath', () => {
  const publicPaths = [
    '/login',
    '/notice-user-id',
    '/forget-password',
    '/forget-password/reset',
    '/initial-password-change',
    '/expired-password-change',
    '/arrival-confirmation',
    '/signup',
  ];

  it.each(publicPaths)('treats %s as public', (path) => {
    expect(isPublicPath(path)).toBe(true);
    expect(isPublicPath(`${path}/`)).toBe(true);
  });

  it.each(['/onetime/business-flows/bf-1', '/onetime/business-flows/bf-1/documents/2'])(
    'treats %s (under /onetime/business-flows/) as public',
    (path) => expect(isPublicPath(path)).toBe(true),
  );

  it.each([
    '/',
    '/organizations/acme/users',
    '/outer-business-flows/1',
    '/workspaces/w-1/join',
    '/sso',
    '/acme/sso-login',
    '/business-flows/bf-1',
    '/error-403',
    '/onetime/auth',
    '/onetime/terms',
    '/no-such-page',
    '/login-help',
    '/signup/extra',
    '/forget-password/reset/more',
    '/business-flows/onetime/business-flows/x',
  ])('does not treat %s as public', (path) => {
    expect(isPublicPath(path)).toBe(false);
  });
});

describe('isJoinPath', () => {
  it('matches the workspace join route only', () => {
    expect(isJoinPath('/workspaces/w-1/join')).toBe(true);
    expect(isJoinPath('/workspaces/w-1/join/')).toBe(true);
    expect(isJoinPath('/workspaces/w-1')).toBe(false);
    expect(isJoinPath('/workspaces//join')).toBe(false);
    expect(isJoinPath('/workspaces/w-1/join/extra')).toBe(false);
    expect(isJoinPath('/x/workspaces/w-1/join')).toBe(false);
  });
});
