import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Answer, BrowserRequest, errorBody, fetchRecorder, json, tokenPair } from '../testing/fixtures.ts';
import { SESSION_TIMEOUT_MS, SessionEndedError } from './guard.ts';
import type * as SessionModule from './session.ts';

/**
 * The real wiring of session.ts: its guards, clients and query cache. The clients capture Request and fetch when
 * the module loads, so both are stubbed first and the module is imported afterwards.
 */
let session: typeof SessionModule;
let answer: Answer;
let recorder: ReturnType<typeof fetchRecorder>;
let navigate: ReturnType<typeof vi.fn<(to: string) => void>>;

const NOW = new Date('2026-04-01T09:00:00Z').getTime();
const nowSeconds = () => Math.floor(Date.now() / 1000);
const ME = { data: { type: 'User', id: '42', attributes: {} } };

beforeAll(async () => {
  vi.stubGlobal('Request', BrowserRequest);
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => recorder.fetch(input, init));
  session = await import('./session.ts');
});

afterAll(() => {
  vi.unstubAllGlobals();
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  answer = () => json(200, ME);
  recorder = fetchRecorder((request) => answer(request));
  // Like the router's navigate in the browser: the page location changes at once.
  navigate = vi.fn((to: string) => window.history.pushState(null, '', to));
  session.setNavigator(navigate);
  window.history.replaceState(null, '', '/business-flows/bf-1?tab=documents');
  session.queryClient.setQueryData(['business-flow', 'bf-1'], { id: 'bf-1' });
});

afterEach(() => {
  vi.useRealTimers();
  session.queryClient.clear();
  localStorage.clear();
  sessionStorage.clear();
});

const cacheIsEmpty = () => session.queryClient.getQueryCache().getAll().length === 0;

describe('session wiring', () => {
  it('keeps signed-in tokens in localStorage and one-time tokens in sessionStorage', () => {
    // A member's sign-in answers the access token only: the refresh token came as an HttpOnly cookie.
    const main = tokenPair(nowSeconds() + 600, 'main');
    session.sessionGuard.signedIn({ authorizationToken: main.authorizationToken });
    session.oneTimeGuard.signedIn(tokenPair(nowSeconds() + 600, 'guest'));
    expect(localStorage.getItem('keiyaku.tokens')).toContain(main.authorizationToken);
    expect(localStorage.getItem('keiyaku.tokens')).not.toContain('refresh');
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(NOW));
    expect(sessionStorage.getItem('keiyaku.onetime.tokens')).toContain('refresh-guest');
    expect(sessionStorage.getItem('keiyaku.onetime.sessionTimestamp')).toBe(String(NOW));
  });

  it('refreshes an expired token with PATCH /core/v1/auth, the refresh token in the cookie, and sends the new one', async () => {
    const old = tokenPair(nowSeconds(), 'old');
    const fresh = tokenPair(nowSeconds() + 600, 'new');
    session.sessionGuard.signedIn({ authorizationToken: old.authorizationToken });
    answer = (request) =>
      request.method === 'PATCH'
        ? json(200, { data: { type: 'Auth', attributes: { authorizationToken: fresh.authorizationToken } } })
        : json(200, ME);
    await expect(session.api.GET('/me')).resolves.toMatchObject({ data: ME });
    expect(recorder.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['PATCH /core/v1/auth', 'GET /core/v1/me']);
    // No refresh token in the body: the browser sends the HttpOnly cookie by itself.
    expect(recorder.requests[0]!.body).toEqual({
      data: {
        type: 'Auth',
        attributes: { authorizationToken: old.authorizationToken, refreshTokenDelivery: 'cookie' },
      },
    });
    expect(recorder.requests[0]!.headers.has('Authorization')).toBe(false);
    expect(recorder.requests[1]!.headers.get('Authorization')).toBe(`Bearer ${fresh.authorizationToken}`);
    expect(localStorage.getItem('keiyaku.tokens')).toContain(fresh.authorizationToken);
    expect(navigate).not.toHaveBeenCalled();
    expect(cacheIsEmpty()).toBe(false);
  });

  it('sends a refresh token stored before the cookie once, asking for the cookie, and keeps none afterwards', async () => {
    const old = tokenPair(nowSeconds(), 'old');
    session.sessionGuard.signedIn(old);
    const fresh = tokenPair(nowSeconds() + 600, 'new');
    answer = (request) =>
      request.method === 'PATCH'
        ? json(200, { data: { type: 'Auth', attributes: { authorizationToken: fresh.authorizationToken } } })
        : json(200, ME);
    await session.api.GET('/me');
    expect(recorder.requests[0]!.body).toEqual({
      data: {
        type: 'Auth',
        attributes: {
          authorizationToken: old.authorizationToken,
          refreshToken: 'refresh-old',
          refreshTokenDelivery: 'cookie',
        },
      },
    });
    expect(localStorage.getItem('keiyaku.tokens')).not.toContain('refresh');
  });

  it('one-time (guest) tokens refresh with PATCH /core/v1/onetime/auth, the refresh token in the body', async () => {
    window.history.replaceState(null, '', '/onetime/business-flows/bf-9');
    const old = tokenPair(nowSeconds(), 'guest');
    const fresh = tokenPair(nowSeconds() + 600, 'guest2');
    session.oneTimeGuard.signedIn(old);
    answer = (request) =>
      request.method === 'PATCH'
        ? json(200, { data: { type: 'OneTimeAuth', attributes: { ...fresh, businessFlowId: 'bf-9' } } })
        : json(200, ME);
    await session.oneTimeApi.GET('/onetime/me');
    expect(recorder.requests[0]!.method).toBe('PATCH');
    expect(recorder.requests[0]!.url).toBe('/core/v1/onetime/auth');
    expect(recorder.requests[0]!.body).toEqual({
      data: { type: 'OneTimeAuth', attributes: { refreshToken: 'refresh-guest' } },
    });
    expect(recorder.requests[1]!.headers.get('authorization')).toBe(`Bearer ${fresh.authorizationToken}`);
    expect(sessionStorage.getItem('keiyaku.onetime.tokens')).toContain('refresh-guest2');
    // The member's tokens are not touched.
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
  });

  it('a refused guest refresh ends the guest session and goes back to /onetime/auth', async () => {
    window.history.replaceState(null, '', '/onetime/business-flows/bf-9');
    session.oneTimeGuard.signedIn(tokenPair(nowSeconds(), 'guest'));
    answer = () => json(401, errorBody(401, 'REFRESH_TOKEN_INVALID'));
    await expect(session.oneTimeApi.GET('/onetime/me')).rejects.toEqual(new SessionEndedError('refresh-failed'));
    expect(sessionStorage.getItem('keiyaku.onetime.tokens')).toBeNull();
    expect(navigate).toHaveBeenCalledExactlyOnceWith(
      `/onetime/auth?redirect=${encodeURIComponent('/onetime/business-flows/bf-9')}`,
    );
  });

  it('a refused refresh clears tokens, timestamp and query cache and goes to /login with the original URI', async () => {
    session.sessionGuard.signedIn(tokenPair(nowSeconds()));
    answer = () => json(401, errorBody(401, 'REFRESH_TOKEN_INVALID'));
    await expect(session.api.GET('/me')).rejects.toEqual(new SessionEndedError('refresh-failed'));
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
    expect(cacheIsEmpty()).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login?redirect=%2Fbusiness-flows%2Fbf-1%3Ftab%3Ddocuments');
  });

  it('a refresh that fails for several waiting requests goes to /login once, keeping the original URI', async () => {
    session.sessionGuard.signedIn(tokenPair(nowSeconds()));
    answer = () => json(401, errorBody(401, 'REFRESH_TOKEN_REUSED'));
    const results = await Promise.allSettled([session.api.GET('/me'), session.api.GET('/me')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(recorder.requests.map((r) => r.method)).toEqual(['PATCH']);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login?redirect=%2Fbusiness-flows%2Fbf-1%3Ftab%3Ddocuments');
  });

  it('a timed-out session clears tokens, timestamp and cache and goes to /login with the URI and timeout flag', async () => {
    session.sessionGuard.signedIn(tokenPair(nowSeconds() + 7200));
    vi.setSystemTime(NOW + SESSION_TIMEOUT_MS + 1);
    await expect(session.api.GET('/me')).rejects.toEqual(new SessionEndedError('timeout'));
    expect(recorder.requests).toHaveLength(0);
    expect(localStorage.getItem('keiyaku.tokens')).toBeNull();
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBeNull();
    expect(cacheIsEmpty()).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith(
      '/login?redirect=%2Fbusiness-flows%2Fbf-1%3Ftab%3Ddocuments&timeout=1',
    );
  });

  it('a request without tokens clears the cache and goes to /login with the original URI, no timeout flag', async () => {
    await expect(session.api.GET('/me')).rejects.toEqual(new SessionEndedError('no-token'));
    expect(cacheIsEmpty()).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login?redirect=%2Fbusiness-flows%2Fbf-1%3Ftab%3Ddocuments');
  });

  it('a successful request counts as activity', async () => {
    session.sessionGuard.signedIn(tokenPair(nowSeconds() + 7200));
    vi.setSystemTime(NOW + 20 * 60_000);
    await session.api.GET('/me');
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(NOW + 20 * 60_000));
  });

  it('an ended one-time session goes back to the guest sign-in with the URI, leaving the signed-in tokens', async () => {
    window.history.replaceState(null, '', '/onetime/business-flows/bf-9?step=2');
    session.sessionGuard.signedIn(tokenPair(nowSeconds() + 7200, 'main'));
    session.oneTimeGuard.signedIn(tokenPair(nowSeconds() + 7200, 'guest'));
    vi.setSystemTime(NOW + SESSION_TIMEOUT_MS + 1);
    await expect(session.oneTimeApi.GET('/me')).rejects.toEqual(new SessionEndedError('timeout'));
    expect(sessionStorage.getItem('keiyaku.onetime.tokens')).toBeNull();
    expect(sessionStorage.getItem('keiyaku.onetime.sessionTimestamp')).toBeNull();
    expect(localStorage.getItem('keiyaku.tokens')).toContain('refresh-main');
    expect(cacheIsEmpty()).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith(
      '/onetime/auth?redirect=%2Fonetime%2Fbusiness-flows%2Fbf-9%3Fstep%3D2&timeout=1',
    );
  });
});
