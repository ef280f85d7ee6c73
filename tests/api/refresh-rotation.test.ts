import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../../core/auth/routes.ts';
import { ROTATION_GRACE_MS } from '../../core/auth/rotation.ts';
import { signIn, signInBody, signUpOrganization } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';

interface Pair {
  authorizationToken: string;
  refreshToken: string;
}

let app: TestApp;
beforeAll(async () => {
  // Many sign-ups from one address: the per-IP sign-up limit (tests/api of its own) is not the subject here.
  app = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '100' } });
});
afterAll(() => app.close());

function refreshBody(attributes: Record<string, unknown>) {
  return { data: { type: 'Auth', attributes } };
}

function sessionIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')).sid;
}

function expectError(response: CallResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
}

async function refresh(pair: Pair) {
  return app.api.call('refreshAuth', { body: refreshBody({ ...pair }) });
}

async function session(token: string) {
  return app.service.deps
    .knex('auth_sessions')
    .where({ id: sessionIdOf(token) })
    .first();
}

/** The refresh-token cookie a response sets, with its attributes, or null. */
function refreshCookie(response: CallResult) {
  const line = response.headers.getSetCookie().find((header) => header.startsWith(`${REFRESH_COOKIE}=`));
  if (!line) return null;
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  return { value: pair!.slice(REFRESH_COOKIE.length + 1), attributes: attributes.map((a) => a.toLowerCase()), line };
}

const cookieHeader = (value: string) => ({ cookie: `${REFRESH_COOKIE}=${value}` });

describe('refresh-token rotation with a grace window', () => {
  it('answers two refreshes sent at once with the same pair both with 200 and the same refresh token, and the family stays live', async () => {
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    for (let round = 0; round < 5; round += 1) {
      const [one, two] = await Promise.all([refresh(pair), refresh(pair)]);
      expect(one!.status, JSON.stringify(one!.body)).toBe(200);
      expect(two!.status, JSON.stringify(two!.body)).toBe(200);
      const first = one!.body.data.attributes as Pair;
      const second = two!.body.data.attributes as Pair;
      expect(second.refreshToken).toBe(first.refreshToken);
      expect(first.refreshToken).not.toBe(pair.refreshToken);
      for (const answer of [first, second]) {
        expect(sessionIdOf(answer.authorizationToken)).toBe(sessionIdOf(pair.authorizationToken));
        expect((await app.api.call('getCurrentUser', { token: answer.authorizationToken })).status).toBe(200);
      }
      expect((await session(pair.authorizationToken)).revoked_at).toBeNull();
      Object.assign(pair, first);
    }
    // The shared token is the live one: it rotates as usual.
    expect((await refresh(pair)).status).toBe(200);
  });

  it('answers a token rotated a moment ago with the pair its rotation issued, and the live token when that was rotated too', async () => {
    const org = await signUpOrganization(app);
    const first = await signIn(app, org.loginId);
    const second = (await refresh(first)).body.data.attributes as Pair;
    const again = await refresh(first);
    expect(again.status).toBe(200);
    expect(again.body.data.attributes.refreshToken).toBe(second.refreshToken);

    const third = (await refresh(second)).body.data.attributes as Pair;
    const late = await refresh(first);
    expect(late.status).toBe(200);
    expect(late.body.data.attributes.refreshToken).toBe(third.refreshToken);
    expect((await session(first.authorizationToken)).revoked_at).toBeNull();
  });

  it('answers the same old token after the window with 401 REFRESH_TOKEN_REUSED and revokes the family', async () => {
    const org = await signUpOrganization(app);
    const first = await signIn(app, org.loginId);
    const second = (await refresh(first)).body.data.attributes as Pair;
    app.clock.advance(ROTATION_GRACE_MS + 1000);

    expectError(await refresh(first), 401, 'REFRESH_TOKEN_REUSED');
    const ended = await session(first.authorizationToken);
    expect(ended.revoked_at).toBeInstanceOf(Date);
    expect(ended.revoked_reason).toBe('refresh-token-reuse');
    expectError(await refresh(second), 401, 'SESSION_REVOKED');
    expectError(await app.api.call('getCurrentUser', { token: second.authorizationToken }), 401, 'SESSION_REVOKED');
    const logged = await app.service.deps
      .knex('operation_logs')
      .where({ action: 'auth.refresh_token_reused', target_id: ended.id });
    expect(logged).toHaveLength(1);
  });

  it("does not let another session's access token use the grace window: 401 REFRESH_TOKEN_INVALID", async () => {
    const org = await signUpOrganization(app);
    const mine = await signIn(app, org.loginId);
    const other = await signIn(app, org.loginId);
    const rotated = (await refresh(mine)).body.data.attributes as Pair;

    const borrowed = await refresh({ authorizationToken: other.authorizationToken, refreshToken: mine.refreshToken });
    expectError(borrowed, 401, 'REFRESH_TOKEN_INVALID');
    expect(borrowed.body.data).toBeUndefined();
    // Neither session is harmed, and the rightful holder still gets the grace answer.
    expect((await session(mine.authorizationToken)).revoked_at).toBeNull();
    expect((await session(other.authorizationToken)).revoked_at).toBeNull();
    const own = await refresh(mine);
    expect(own.status).toBe(200);
    expect(own.body.data.attributes.refreshToken).toBe(rotated.refreshToken);
  });

  it('keeps the successor only sealed, never in clear, and wipes it once the window has passed or the session ends', async () => {
    const org = await signUpOrganization(app);
    const first = await signIn(app, org.loginId);
    const second = (await refresh(first)).body.data.attributes as Pair;
    const knex = app.service.deps.knex;
    const sid = sessionIdOf(first.authorizationToken);
    const rotatedRow = async () =>
      knex('refresh_tokens').where({ session_id: sid }).whereNotNull('rotated_at').orderBy('rotated_at').first();
    const sealed = (await rotatedRow()).successor_sealed as Buffer;
    expect(sealed.length).toBeGreaterThan(28);
    expect(sealed.toString('latin1')).not.toContain(second.refreshToken);
    expect(sealed.toString('base64url')).not.toContain(second.refreshToken);

    app.clock.advance(ROTATION_GRACE_MS + 1000);
    const third = (await refresh(second)).body.data.attributes as Pair;
    expect((await rotatedRow()).successor_sealed).toBeNull();
    // The second token's row, rotated just now, keeps its sealed successor until its own window passes.
    const rows = await knex('refresh_tokens').where({ session_id: sid }).whereNotNull('successor_sealed');
    expect(rows).toHaveLength(1);

    expect((await app.api.call('signOut', { token: third.authorizationToken })).status).toBe(204);
    expect(await knex('refresh_tokens').where({ session_id: sid }).whereNotNull('successor_sealed')).toHaveLength(0);
  });
});

describe('refresh token in an HttpOnly cookie for the web workbench', () => {
  async function cookieSignIn(headers: Record<string, string> = {}) {
    const org = await signUpOrganization(app);
    const body = signInBody(org.loginId, org.password);
    (body.data.attributes as Record<string, unknown>).refreshTokenDelivery = 'cookie';
    const response = await app.api.call('signIn', { body, headers });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return { org, response };
  }

  it('signs in with no refreshToken in the body and the token in an HttpOnly, SameSite=Strict cookie for /core/v1/auth', async () => {
    const { response } = await cookieSignIn();
    expect(response.body.data.attributes).not.toHaveProperty('refreshToken');
    const cookie = refreshCookie(response)!;
    expect(cookie, response.headers.getSetCookie().join('\n')).not.toBeNull();
    expect(cookie.value.length).toBeGreaterThanOrEqual(32);
    expect(cookie.attributes).toContain('httponly');
    expect(cookie.attributes).toContain('samesite=strict');
    expect(cookie.attributes).toContain('path=/core/v1/auth');
    // Plain http (the test server): no Secure, or the browser would drop it.
    expect(cookie.attributes).not.toContain('secure');
    expect(
      (await app.api.call('getCurrentUser', { token: response.body.data.attributes.authorizationToken })).status,
    ).toBe(200);
  });

  it('marks the cookie Secure when the request came over https (behind a trusted proxy)', async () => {
    const { response } = await cookieSignIn({ 'x-forwarded-proto': 'https' });
    expect(refreshCookie(response)!.attributes).toContain('secure');
  });

  it('refreshes with the cookie when the body has no refreshToken, sets the next one in the cookie, and gives racing tabs the same one', async () => {
    const { response } = await cookieSignIn();
    const token = response.body.data.attributes.authorizationToken as string;
    const first = refreshCookie(response)!.value;
    const call = () =>
      app.api.call('refreshAuth', { body: refreshBody({ authorizationToken: token }), headers: cookieHeader(first) });
    const [one, two] = await Promise.all([call(), call()]);
    for (const answer of [one, two]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.data.attributes).not.toHaveProperty('refreshToken');
    }
    const next = refreshCookie(one)!.value;
    expect(next).not.toBe(first);
    expect(refreshCookie(two)!.value).toBe(next);

    const after = await app.api.call('refreshAuth', {
      body: refreshBody({ authorizationToken: one.body.data.attributes.authorizationToken }),
      headers: cookieHeader(next),
    });
    expect(after.status).toBe(200);
    expect(refreshCookie(after)!.value).not.toBe(next);
  });

  it('answers a refresh with neither a body token nor the cookie with 401 REFRESH_TOKEN_INVALID', async () => {
    const { response } = await cookieSignIn();
    const token = response.body.data.attributes.authorizationToken as string;
    expectError(
      await app.api.call('refreshAuth', { body: refreshBody({ authorizationToken: token }) }),
      401,
      'REFRESH_TOKEN_INVALID',
    );
  });

  it('clears the cookie on sign-out, and the signed-out cookie no longer refreshes', async () => {
    const { response } = await cookieSignIn();
    const token = response.body.data.attributes.authorizationToken as string;
    const value = refreshCookie(response)!.value;
    const out = await app.api.call('signOut', { token, headers: cookieHeader(value) });
    expect(out.status).toBe(204);
    const cleared = refreshCookie(out)!;
    expect(cleared.value).toBe('');
    expect(cleared.attributes).toContain('path=/core/v1/auth');
    expect(cleared.attributes.some((a) => a.startsWith('expires=thu, 01 jan 1970'))).toBe(true);
    expectError(
      await app.api.call('refreshAuth', {
        body: refreshBody({ authorizationToken: token }),
        headers: cookieHeader(value),
      }),
      401,
      'SESSION_REVOKED',
    );
  });

  it('hands the refresh token to the CLI and integrators in the body, with no cookie, as before', async () => {
    const org = await signUpOrganization(app);
    const response = await app.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    expect(typeof response.body.data.attributes.refreshToken).toBe('string');
    expect(refreshCookie(response)).toBeNull();
    const refreshed = await refresh(response.body.data.attributes);
    expect(typeof refreshed.body.data.attributes.refreshToken).toBe('string');
    expect(refreshCookie(refreshed)).toBeNull();
  });

  it('switches a body-token client to the cookie when a refresh asks for it (a tab signed in before the change)', async () => {
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    const response = await app.api.call('refreshAuth', {
      body: refreshBody({ ...pair, refreshTokenDelivery: 'cookie' }),
    });
    expect(response.status).toBe(200);
    expect(response.body.data.attributes).not.toHaveProperty('refreshToken');
    expect(refreshCookie(response)!.value.length).toBeGreaterThanOrEqual(32);
  });

  it('delivers the cookie on changePasswordAndSignIn too', async () => {
    const org = await signUpOrganization(app);
    await app.service.deps.knex('users').where({ id: org.ownerId }).update({ must_change_password: true });
    const response = await app.api.call('changePasswordAndSignIn', {
      body: {
        data: {
          type: 'PasswordChange',
          attributes: {
            loginId: org.loginId,
            currentPassword: org.password,
            password: 'my-own-pass7',
            passwordConfirmation: 'my-own-pass7',
            refreshTokenDelivery: 'cookie',
          },
        },
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.data.attributes).not.toHaveProperty('refreshToken');
    expect(refreshCookie(response)!.attributes).toContain('httponly');
  });
});
