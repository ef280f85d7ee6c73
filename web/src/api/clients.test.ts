import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionEndedError, SessionGuard } from '../session/guard.ts';
import { TokenStore, type TokenPair } from '../session/tokens.ts';
import { type Answer, BrowserRequest, errorBody, fetchRecorder, json, tokenPair } from '../testing/fixtures.ts';
import { createAnonymousClient, createAuthenticatedClient, createOneTimeClient } from './clients.ts';
import { ApiError, unwrap } from './errors.ts';

const EXP = 1_700_000_000;
const ME = { data: { type: 'User', id: '42', attributes: {} } };

let answer: Answer;
let recorder: ReturnType<typeof fetchRecorder>;
const clock = { now: 0 };

/** Builds the clients the way session.ts does, over a stubbed global fetch (openapi-fetch captures it on creation). */
function clients() {
  const anonymous = createAnonymousClient();
  const refresh = async (pair: TokenPair) =>
    unwrap(await anonymous.PATCH('/auth', { body: { data: { type: 'Auth', attributes: pair } } })).data.attributes;
  const guard = new SessionGuard({
    store: new TokenStore(localStorage, 'keiyaku'),
    now: () => clock.now,
    refresh,
    onSessionEnded: vi.fn(),
  });
  const oneTimeGuard = new SessionGuard({
    store: new TokenStore(sessionStorage, 'keiyaku.onetime'),
    now: () => clock.now,
    refresh,
    onSessionEnded: vi.fn(),
  });
  return {
    anonymous,
    guard,
    oneTimeGuard,
    api: createAuthenticatedClient(guard),
    oneTimeApi: createOneTimeClient(oneTimeGuard),
  };
}

beforeEach(() => {
  clock.now = EXP * 1000 - 10 * 60_000;
  answer = () => json(200, ME);
  recorder = fetchRecorder((request) => answer(request));
  vi.stubGlobal('Request', BrowserRequest);
  vi.stubGlobal('fetch', recorder.fetch);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  vi.restoreAllMocks();
  localStorage.clear();
  sessionStorage.clear();
});

describe('authenticated client', () => {
  it('sends Authorization: Bearer with the guard’s token to /core/v1', async () => {
    const { api, guard } = clients();
    const pair = tokenPair(EXP);
    guard.signedIn(pair);
    const { data } = await api.GET('/me');
    expect(data).toEqual(ME);
    expect(recorder.requests).toHaveLength(1);
    expect(recorder.requests[0]).toMatchObject({ method: 'GET', url: '/core/v1/me' });
    expect(recorder.requests[0]!.headers.get('Authorization')).toBe(`Bearer ${pair.authorizationToken}`);
  });

  it('refreshes an expired token through PATCH /auth first, then sends the new one', async () => {
    const { api, guard } = clients();
    const old = tokenPair(EXP);
    const fresh = tokenPair(EXP + 3600, 'b');
    guard.signedIn(old);
    clock.now = EXP * 1000;
    answer = (request) =>
      request.method === 'PATCH' ? json(200, { data: { type: 'Auth', attributes: fresh } }) : json(200, ME);
    await api.GET('/me');
    expect(recorder.requests.map((r) => `${r.method} ${r.url}`)).toEqual(['PATCH /core/v1/auth', 'GET /core/v1/me']);
    const [refresh, me] = recorder.requests;
    expect(refresh!.body).toEqual({
      data: {
        type: 'Auth',
        attributes: { authorizationToken: old.authorizationToken, refreshToken: old.refreshToken },
      },
    });
    expect(refresh!.headers.has('Authorization')).toBe(false);
    expect(me!.headers.get('Authorization')).toBe(`Bearer ${fresh.authorizationToken}`);
    expect(guard.claims()?.exp).toBe(EXP + 3600);
  });

  it('refreshes once for concurrent requests with an expired token', async () => {
    const { api, guard } = clients();
    const fresh = tokenPair(EXP + 3600, 'b');
    guard.signedIn(tokenPair(EXP));
    clock.now = EXP * 1000 + 1;
    answer = (request) =>
      request.method === 'PATCH' ? json(200, { data: { type: 'Auth', attributes: fresh } }) : json(200, ME);
    await Promise.all([api.GET('/me'), api.GET('/me'), api.GET('/me')]);
    expect(recorder.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    const sent = recorder.requests.filter((r) => r.method === 'GET').map((r) => r.headers.get('Authorization'));
    expect(sent).toEqual(Array(3).fill(`Bearer ${fresh.authorizationToken}`));
  });

  it('when the refresh is refused, sends nothing and rejects with SessionEndedError', async () => {
    const { api, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    clock.now = EXP * 1000;
    answer = () => json(401, errorBody(401, 'REFRESH_TOKEN_INVALID'));
    await expect(api.GET('/me')).rejects.toEqual(new SessionEndedError('refresh-failed'));
    expect(recorder.requests.map((r) => r.method)).toEqual(['PATCH']);
    expect(guard.hasSession()).toBe(false);
  });

  it('without a session sends nothing and rejects with SessionEndedError', async () => {
    const { api } = clients();
    await expect(api.GET('/me')).rejects.toEqual(new SessionEndedError('no-token'));
    expect(recorder.requests).toHaveLength(0);
  });

  it('touches the activity timestamp on a successful answer', async () => {
    const { api, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    clock.now += 5 * 60_000;
    await api.GET('/me');
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(clock.now));
  });

  it('does not count a failed answer as activity', async () => {
    const { api, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    const signedInAt = clock.now;
    clock.now += 5 * 60_000;
    answer = () => json(500, errorBody(500, 'INTERNAL_ERROR'));
    await api.GET('/me');
    expect(localStorage.getItem('keiyaku.sessionTimestamp')).toBe(String(signedInAt));
  });
});

describe('one-time client', () => {
  it('sends the sessionStorage (one-time) token, not the signed-in one', async () => {
    const { oneTimeApi, guard, oneTimeGuard } = clients();
    guard.signedIn(tokenPair(EXP, 'main'));
    const guest = tokenPair(EXP, 'guest');
    oneTimeGuard.signedIn(guest);
    await oneTimeApi.GET('/me');
    expect(recorder.requests[0]!.headers.get('Authorization')).toBe(`Bearer ${guest.authorizationToken}`);
    expect(sessionStorage.getItem('keiyaku.onetime.sessionTimestamp')).toBe(String(clock.now));
  });

  it('without a one-time session rejects even when a signed-in session exists', async () => {
    const { oneTimeApi, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    await expect(oneTimeApi.GET('/me')).rejects.toBeInstanceOf(SessionEndedError);
    expect(recorder.requests).toHaveLength(0);
  });
});

describe('anonymous client', () => {
  it('sends no Authorization even while signed in', async () => {
    const { anonymous, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    answer = () => json(200, { data: { type: 'Terms', id: 't1', attributes: {} } });
    await anonymous.GET('/terms/current');
    expect(recorder.requests[0]).toMatchObject({ method: 'GET', url: '/core/v1/terms/current' });
    expect(recorder.requests[0]!.headers.has('Authorization')).toBe(false);
  });

  it('sends no Authorization on sign-in', async () => {
    const { anonymous } = clients();
    answer = () => json(201, { data: { type: 'Auth', attributes: tokenPair(EXP) } });
    await anonymous.POST('/auth', {
      body: { data: { type: 'Auth', attributes: { loginId: 'owner01', password: 'secret123', acceptTermId: 't1' } } },
    });
    expect(recorder.requests[0]!.headers.has('Authorization')).toBe(false);
  });
});

describe('every client', () => {
  it('turns a network failure into ApiError NETWORK_ERROR', async () => {
    const { api, oneTimeApi, anonymous, guard, oneTimeGuard } = clients();
    guard.signedIn(tokenPair(EXP));
    oneTimeGuard.signedIn(tokenPair(EXP));
    answer = () => {
      throw new TypeError('Failed to fetch');
    };
    for (const call of [api.GET('/me'), oneTimeApi.GET('/me'), anonymous.GET('/terms/current')]) {
      const error = await call.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
    }
  });

  it('turns an aborted request into ApiError UNKNOWN_ERROR, not a network failure', async () => {
    const { anonymous } = clients();
    answer = () => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    };
    await expect(anonymous.GET('/terms/current')).rejects.toMatchObject({ status: 0, code: 'UNKNOWN_ERROR' });
  });

  it('maps error answers through the shared mapper: 401, 403, 404 detail, 500 traceId', async () => {
    const { api, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    const cases = [
      [401, errorBody(401, 'SESSION_REVOKED'), { status: 401, code: 'SESSION_REVOKED' }],
      [403, errorBody(403, 'IP_RESTRICTED'), { status: 403, code: 'IP_RESTRICTED' }],
      [404, errorBody(404, 'NOT_FOUND', { detail: 'gone' }), { status: 404, code: 'NOT_FOUND', detail: 'gone' }],
      [
        500,
        errorBody(500, 'INTERNAL_ERROR', { traceId: 'tr' }),
        { status: 500, code: 'INTERNAL_ERROR', traceId: 'tr' },
      ],
    ] as const;
    for (const [status, body, expected] of cases) {
      answer = () => json(status, body);
      const error = await api
        .GET('/me')
        .then(unwrap)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject(expected);
    }
  });

  it('parses the error of a binary download from the body', async () => {
    const { api, guard } = clients();
    guard.signedIn(tokenPair(EXP));
    answer = () => json(404, errorBody(404, 'NOT_FOUND', { detail: 'No such file.' }));
    const error = await api
      .GET('/me', { parseAs: 'blob' })
      .then(unwrap)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', detail: 'No such file.' });
    // And a successful binary download is a Blob.
    answer = () => new Response(new Uint8Array([1, 2, 3]), { status: 200 });
    const blob = unwrap(await api.GET('/me', { parseAs: 'blob' })) as unknown as Blob;
    expect([...new Uint8Array(await blob.arrayBuffer())]).toEqual([1, 2, 3]);
  });

  it('sets no timeout: no aborting signal, and a ten-minute answer still arrives', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    const timeout = vi.spyOn(AbortSignal, 'timeout');
    const { api, anonymous, guard } = clients();
    guard.signedIn(tokenPair(EXP + 3600));
    answer = () => new Promise((resolve) => setTimeout(() => resolve(json(200, ME)), 10 * 60_000));
    const calls = [api.GET('/me'), anonymous.GET('/terms/current')];
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    const results = await Promise.all(calls);
    for (const result of results) expect(result.response.status).toBe(200);
    expect(recorder.requests).toHaveLength(2);
    for (const request of recorder.requests) expect(request.signal.aborted).toBe(false);
    expect(timeout).not.toHaveBeenCalled();
  });
});
