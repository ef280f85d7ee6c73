import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROTATION_GRACE_MS } from '../../core/auth/rotation.ts';
import { OperationLog } from '../../core/modules/logs/operation-log.ts';
import { PASSWORD, signIn, signInBody, signUpOrganization, uniqueLoginId } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';

const MINUTE = 60_000;

function decodeJwtPayload(token: string): Record<string, unknown> {
  const parts = token.split('.');
  expect(parts).toHaveLength(3);
  return JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
}

/** Asserts a JSON:API error response with exactly one error of this status and code. */
function expectError(response: CallResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
  expect(response.body.errors[0].traceId).toBe(response.headers.get('x-request-id'));
  return response.body.errors[0];
}

function refreshBody(pair: { authorizationToken: string; refreshToken: string }) {
  return { data: { type: 'Auth', attributes: pair } };
}

async function wrongSignIn(app: TestApp, loginId: string, password = 'wrong-password1') {
  return app.api.call('signIn', { body: signInBody(loginId, password) });
}

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

describe('sign-up, sign-in, refresh, reuse, sign-out', () => {
  it('signs in a freshly signed-up owner with a JWT whose exp is in seconds and uid is the user id as a string', async () => {
    const org = await signUpOrganization(app);
    const before = Math.floor(app.clock.now().getTime() / 1000);
    const response = await app.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    expect(response.status).toBe(201);
    const { authorizationToken, refreshToken } = response.body.data.attributes;
    expect(typeof refreshToken).toBe('string');
    expect(refreshToken.length).toBeGreaterThanOrEqual(32);

    const claims = decodeJwtPayload(authorizationToken);
    expect(claims.uid).toBe(org.ownerId);
    expect(typeof claims.uid).toBe('string');
    expect(claims.oid).toBe(org.organizationId);
    expect(Number.isInteger(claims.exp)).toBe(true);
    expect(Number.isInteger(claims.iat)).toBe(true);
    // Seconds, not milliseconds: the default lifetime is 15 minutes from now.
    expect(claims.exp).toBe((claims.iat as number) + 900);
    expect(claims.iat as number).toBeGreaterThanOrEqual(before);
    expect(claims.iat as number).toBeLessThanOrEqual(before + 5);

    const me = await app.api.call('getCurrentUser', { token: authorizationToken });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(org.ownerId);
    expect(me.body.data.attributes.loginId).toBe(org.loginId);
  });

  it('stores the refresh token only as a hash', async () => {
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    const { sid } = decodeJwtPayload(pair.authorizationToken) as { sid: string };
    const rows = await app.service.deps.knex('refresh_tokens').where({ session_id: sid });
    expect(rows).toHaveLength(1);
    expect(rows[0].token_hash).not.toBe(pair.refreshToken);
    expect(rows[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refreshAuth exchanges a pair for a new one in the same session, and the new access token works', async () => {
    const org = await signUpOrganization(app);
    const first = await signIn(app, org.loginId);
    const response = await app.api.call('refreshAuth', { body: refreshBody(first) });
    expect(response.status).toBe(200);
    const second = response.body.data.attributes;
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(decodeJwtPayload(second.authorizationToken).sid).toBe(decodeJwtPayload(first.authorizationToken).sid);
    expect(decodeJwtPayload(second.authorizationToken).uid).toBe(org.ownerId);

    const me = await app.api.call('getCurrentUser', { token: second.authorizationToken });
    expect(me.status).toBe(200);

    // The newest refresh token rotates again.
    const third = await app.api.call('refreshAuth', { body: refreshBody(second) });
    expect(third.status).toBe(200);
  });

  it('refreshes a pair whose access token has expired, as long as the session is not idle', async () => {
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    app.clock.advance(16 * MINUTE);
    expectError(await app.api.call('getCurrentUser', { token: pair.authorizationToken }), 401, 'TOKEN_EXPIRED');
    const response = await app.api.call('refreshAuth', { body: refreshBody(pair) });
    expect(response.status).toBe(200);
    const me = await app.api.call('getCurrentUser', {
      token: response.body.data.attributes.authorizationToken,
    });
    expect(me.status).toBe(200);
  });

  it('compares the access token expiry in whole seconds with no skew: valid in its last second, 401 TOKEN_EXPIRED at exp', async () => {
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    const expMs = (decodeJwtPayload(pair.authorizationToken).exp as number) * 1000;
    // 100 ms into the last valid second leaves 900 ms of real time for the request.
    app.clock.advance(expMs - 1000 + 100 - app.clock.now().getTime());
    expect((await app.api.call('getCurrentUser', { token: pair.authorizationToken })).status).toBe(200);
    app.clock.advance(expMs + 10 - app.clock.now().getTime());
    expectError(await app.api.call('getCurrentUser', { token: pair.authorizationToken }), 401, 'TOKEN_EXPIRED');
  });

  it('rejects a refresh token presented with the access token of another session with 401 REFRESH_TOKEN_INVALID', async () => {
    const org = await signUpOrganization(app);
    const one = await signIn(app, org.loginId);
    const other = await signIn(app, org.loginId);
    expectError(
      await app.api.call('refreshAuth', {
        body: refreshBody({ authorizationToken: other.authorizationToken, refreshToken: one.refreshToken }),
      }),
      401,
      'REFRESH_TOKEN_INVALID',
    );
    expectError(
      await app.api.call('refreshAuth', {
        body: refreshBody({
          authorizationToken: one.authorizationToken,
          refreshToken: 'not-a-token-we-issued',
        }),
      }),
      401,
      'REFRESH_TOKEN_INVALID',
    );
  });

  it('answers 401 REFRESH_TOKEN_REUSED to a rotated refresh token and revokes the whole family', async () => {
    const org = await signUpOrganization(app);
    const first = await signIn(app, org.loginId);
    const rotated = await app.api.call('refreshAuth', { body: refreshBody(first) });
    expect(rotated.status).toBe(200);
    const newest = rotated.body.data.attributes;
    // Past the grace window for racing tabs (tests/api/refresh-rotation.test.ts), a replay is reuse.
    app.clock.advance(ROTATION_GRACE_MS + 1000);

    expectError(await app.api.call('refreshAuth', { body: refreshBody(first) }), 401, 'REFRESH_TOKEN_REUSED');

    // The newest token of the family and its access token stop working too.
    expectError(await app.api.call('refreshAuth', { body: refreshBody(newest) }), 401, 'SESSION_REVOKED');
    expectError(await app.api.call('getCurrentUser', { token: newest.authorizationToken }), 401, 'SESSION_REVOKED');
    expectError(await app.api.call('getCurrentUser', { token: first.authorizationToken }), 401, 'SESSION_REVOKED');

    const { sid } = decodeJwtPayload(first.authorizationToken) as { sid: string };
    const session = await app.service.deps.knex('auth_sessions').where({ id: sid }).first();
    expect(session.revoked_at).toBeInstanceOf(Date);
    expect(session.revoked_reason).toBe('refresh-token-reuse');
    const logged = await app.service.deps
      .knex('operation_logs')
      .where({ action: 'auth.refresh_token_reused', target_id: sid });
    expect(logged).toHaveLength(1);

    // Other sessions of the user are untouched, and the user can sign in again.
    const fresh = await signIn(app, org.loginId);
    expect((await app.api.call('getCurrentUser', { token: fresh.authorizationToken })).status).toBe(200);
  });

  it('signOut answers 204 and ends the session: its access token and refresh token stop working', async () => {
    const org = await signUpOrganization(app);
    const kept = await signIn(app, org.loginId);
    const pair = await signIn(app, org.loginId);
    const out = await app.api.call('signOut', { token: pair.authorizationToken });
    expect(out.status).toBe(204);
    expect(out.body).toBeUndefined();

    expectError(await app.api.call('getCurrentUser', { token: pair.authorizationToken }), 401, 'SESSION_REVOKED');
    expectError(await app.api.call('refreshAuth', { body: refreshBody(pair) }), 401, 'SESSION_REVOKED');
    expectError(await app.api.call('signOut', { token: pair.authorizationToken }), 401, 'SESSION_REVOKED');

    const { sid } = decodeJwtPayload(pair.authorizationToken) as { sid: string };
    const session = await app.service.deps.knex('auth_sessions').where({ id: sid }).first();
    expect(session.revoked_reason).toBe('sign-out');
    // Signing out ends only the caller's session.
    expect((await app.api.call('getCurrentUser', { token: kept.authorizationToken })).status).toBe(200);
  });

  it('signOut without a bearer token answers 401 UNAUTHENTICATED', async () => {
    expectError(await app.api.call('signOut'), 401, 'UNAUTHENTICATED');
  });
});

describe('idle timeout (30 minutes, server side)', () => {
  // A long-lived access token, so only the idle timeout can end the session in these tests.
  let longApp: TestApp;
  beforeAll(async () => {
    longApp = await startApp({ env: { ACCESS_TOKEN_TTL_SECONDS: '3600' } });
  });
  afterAll(() => longApp.close());

  it('keeps a session that was idle for 29 minutes: bearer calls and refresh work', async () => {
    const org = await signUpOrganization(longApp);
    const pair = await signIn(longApp, org.loginId);
    longApp.clock.advance(29 * MINUTE);
    expect((await longApp.api.call('getCurrentUser', { token: pair.authorizationToken })).status).toBe(200);
    longApp.clock.advance(29 * MINUTE);
    const refreshed = await longApp.api.call('refreshAuth', { body: refreshBody(pair) });
    expect(refreshed.status).toBe(200);
  });

  it('refuses bearer calls with 401 SESSION_TIMEOUT and refresh with 401 SESSION_TIMEOUT after 31 idle minutes', async () => {
    const org = await signUpOrganization(longApp);
    const pair = await signIn(longApp, org.loginId);
    longApp.clock.advance(31 * MINUTE);
    // The access token itself is still valid (60 minutes): the server-side idle check refuses it.
    const exp = decodeJwtPayload(pair.authorizationToken).exp as number;
    expect(exp * 1000).toBeGreaterThan(longApp.clock.now().getTime());
    expectError(await longApp.api.call('getCurrentUser', { token: pair.authorizationToken }), 401, 'SESSION_TIMEOUT');
    expectError(await longApp.api.call('refreshAuth', { body: refreshBody(pair) }), 401, 'SESSION_TIMEOUT');
    // The timed-out session is ended for good.
    expect((await longApp.api.call('getCurrentUser', { token: pair.authorizationToken })).status).toBe(401);
    expectError(await longApp.api.call('refreshAuth', { body: refreshBody(pair) }), 401, 'SESSION_REVOKED');

    const { sid } = decodeJwtPayload(pair.authorizationToken) as { sid: string };
    const session = await longApp.service.deps.knex('auth_sessions').where({ id: sid }).first();
    expect(session.revoked_reason).toBe('idle-timeout');
    expect(
      await longApp.service.deps.knex('operation_logs').where({ action: 'auth.session_timed_out', target_id: sid }),
    ).toHaveLength(1);
  });

  it('with the default 15-minute access token, refresh after 31 idle minutes answers 401 SESSION_TIMEOUT', async () => {
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    app.clock.advance(31 * MINUTE);
    expect((await app.api.call('getCurrentUser', { token: pair.authorizationToken })).status).toBe(401);
    expectError(await app.api.call('refreshAuth', { body: refreshBody(pair) }), 401, 'SESSION_TIMEOUT');
  });

  it('counts activity: a call every 20 minutes keeps the session alive past 30 minutes', async () => {
    const org = await signUpOrganization(longApp);
    const pair = await signIn(longApp, org.loginId);
    for (let i = 0; i < 2; i++) {
      longApp.clock.advance(20 * MINUTE);
      expect((await longApp.api.call('getCurrentUser', { token: pair.authorizationToken })).status).toBe(200);
    }
    longApp.clock.advance(20 * MINUTE);
    expect((await longApp.api.call('refreshAuth', { body: refreshBody(pair) })).status).toBe(200);
  });
});

describe('lockout after repeated failures', () => {
  it('answers 401 INVALID_CREDENTIALS four times, then locks with 429 ACCOUNT_LOCKED and Retry-After', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 4; i++) expectError(await wrongSignIn(app, org.loginId), 401, 'INVALID_CREDENTIALS');
    const locked = await wrongSignIn(app, org.loginId);
    expectError(locked, 429, 'ACCOUNT_LOCKED');
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(890);
    expect(retryAfter).toBeLessThanOrEqual(900);

    const throttle = await app.service.deps.knex('sign_in_throttles').where({ login_id: org.loginId }).first();
    expect(throttle.failure_count).toBe(5);
    expect(throttle.locked_until.getTime() - app.clock.now().getTime()).toBeGreaterThan(14 * MINUTE);
  });

  it('counts parallel failures exactly: of ten simultaneous wrong passwords the fifth and later answer 429', async () => {
    const org = await signUpOrganization(app);
    const responses = await Promise.all(Array.from({ length: 10 }, () => wrongSignIn(app, org.loginId)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
    expectError(await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }), 429, 'ACCOUNT_LOCKED');
  });

  it('refuses even the right password while locked', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 5; i++) await wrongSignIn(app, org.loginId);
    const response = await app.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    expectError(response, 429, 'ACCOUNT_LOCKED');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    const change = await app.api.call('changePasswordAndSignIn', {
      body: {
        data: {
          type: 'PasswordChange',
          attributes: {
            loginId: org.loginId,
            currentPassword: org.password,
            password: 'another-pass2',
            passwordConfirmation: 'another-pass2',
          },
        },
      },
    });
    expectError(change, 429, 'ACCOUNT_LOCKED');
  });

  it('unlocks after 15 minutes (still locked at 14) and the right password signs in', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 5; i++) await wrongSignIn(app, org.loginId);
    app.clock.advance(14 * MINUTE);
    const still = await app.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    expectError(still, 429, 'ACCOUNT_LOCKED');
    expect(Number(still.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    app.clock.advance(MINUTE);
    const response = await app.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    expect(response.status).toBe(201);
    expect(await app.service.deps.knex('sign_in_throttles').where({ login_id: org.loginId })).toHaveLength(0);
  });

  it('starts counting afresh after the lock expires: one wrong password does not lock again', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 5; i++) await wrongSignIn(app, org.loginId);
    app.clock.advance(15 * MINUTE);
    expectError(await wrongSignIn(app, org.loginId), 401, 'INVALID_CREDENTIALS');
    expect((await app.api.call('signIn', { body: signInBody(org.loginId, org.password) })).status).toBe(201);
  });

  it('counts only failures that follow each other within 15 minutes', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 4; i++) await wrongSignIn(app, org.loginId);
    app.clock.advance(16 * MINUTE);
    for (let i = 0; i < 4; i++) expectError(await wrongSignIn(app, org.loginId), 401, 'INVALID_CREDENTIALS');
    expectError(await wrongSignIn(app, org.loginId), 429, 'ACCOUNT_LOCKED');
  });

  it('forgets earlier failures after a successful sign-in', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 4; i++) await wrongSignIn(app, org.loginId);
    await signIn(app, org.loginId);
    for (let i = 0; i < 4; i++) expectError(await wrongSignIn(app, org.loginId), 401, 'INVALID_CREDENTIALS');
  });

  it('locks an unknown login ID exactly like a known one, so no response reveals whether it exists', async () => {
    const org = await signUpOrganization(app);
    const unknown = uniqueLoginId('nobody');
    const strip = (response: CallResult) => {
      const [error] = response.body.errors;
      const { traceId: _trace, ...rest } = error;
      return {
        status: response.status,
        retryAfter: response.headers.get('retry-after') !== null,
        error: rest,
      };
    };
    for (let i = 0; i < 5; i++) {
      const known = await wrongSignIn(app, org.loginId);
      const other = await wrongSignIn(app, unknown);
      expect(strip(other)).toEqual(strip(known));
      expect(known.status).toBe(i < 4 ? 401 : 429);
    }
    // While locked, the right password of the known ID and any password of the unknown one answer the same.
    const knownLocked = await app.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    const unknownLocked = await app.api.call('signIn', { body: signInBody(unknown, PASSWORD) });
    expectError(unknownLocked, 429, 'ACCOUNT_LOCKED');
    expect(strip(unknownLocked)).toEqual(strip(knownLocked));
    expect(await app.service.deps.knex('sign_in_throttles').where({ login_id: unknown }).first()).toMatchObject({
      failure_count: 5,
    });
  });

  it('answers a deactivated user like a wrong password', async () => {
    const org = await signUpOrganization(app);
    await app.service.deps.knex('users').where({ id: org.ownerId }).update({ status: 'deactivated' });
    expectError(
      await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }),
      401,
      'INVALID_CREDENTIALS',
    );
  });
});

describe('operation log of sign-in events', () => {
  it('logs sign-in, sign-out, failed sign-ins and the lock, and the hash chain verifies intact', async () => {
    const { knex } = app.service.deps;
    const org = await signUpOrganization(app);
    const pair = await signIn(app, org.loginId);
    expect((await app.api.call('signOut', { token: pair.authorizationToken })).status).toBe(204);
    for (let i = 0; i < 5; i++) await wrongSignIn(app, org.loginId);

    const rows = await knex('operation_logs').where({ organization_id: org.organizationId }).orderBy('id');
    const count = (action: string) => rows.filter((row) => row.action === action).length;
    expect(count('auth.signed_in')).toBe(1);
    expect(count('auth.signed_out')).toBe(1);
    expect(count('auth.sign_in_failed')).toBe(4);
    expect(count('auth.locked')).toBe(1);

    const signedIn = rows.find((row) => row.action === 'auth.signed_in');
    expect(signedIn).toMatchObject({ actor_user_id: org.ownerId });
    expect(signedIn.ip).toBeTruthy();
    const signedOut = rows.find((row) => row.action === 'auth.signed_out');
    expect(signedOut).toMatchObject({
      actor_user_id: org.ownerId,
      target_type: 'session',
      target_id: decodeJwtPayload(pair.authorizationToken).sid,
    });
    const failed = rows.find((row) => row.action === 'auth.sign_in_failed');
    expect(failed).toMatchObject({ actor_user_id: org.ownerId, details: { loginId: org.loginId } });
    expect(rows.at(-1).action).toBe('auth.locked');
    // Each row links to the one before it.
    for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);

    const verdict = await new OperationLog(app.clock).verify(knex, org.organizationId);
    expect(verdict).toEqual({ checked: rows.length, firstBadId: null });
  });

  it('logs failures and the lock of an unknown login ID in the system chain, which verifies intact', async () => {
    const { knex } = app.service.deps;
    const unknown = uniqueLoginId('ghost');
    for (let i = 0; i < 5; i++) await wrongSignIn(app, unknown);
    const rows = await knex('operation_logs')
      .whereNull('organization_id')
      .whereRaw(`details->>'loginId' = ?`, [unknown])
      .orderBy('id');
    expect(rows.map((row) => row.action)).toEqual([
      'auth.sign_in_failed',
      'auth.sign_in_failed',
      'auth.sign_in_failed',
      'auth.sign_in_failed',
      'auth.locked',
    ]);
    expect(rows.every((row) => row.actor_user_id === null)).toBe(true);
    const verdict = await new OperationLog(app.clock).verify(knex, null);
    expect(verdict.firstBadId).toBeNull();
    expect(verdict.checked).toBeGreaterThanOrEqual(5);
  });

  it('names a forged row as the first bad row of its chain', async () => {
    const { knex } = app.service.deps;
    const org = await signUpOrganization(app);
    await signIn(app, org.loginId);
    await wrongSignIn(app, org.loginId);
    const oplog = new OperationLog(app.clock);
    expect((await oplog.verify(knex, org.organizationId)).firstBadId).toBeNull();

    const last = await knex('operation_logs')
      .where({ organization_id: org.organizationId })
      .orderBy('id', 'desc')
      .first();
    const [forged] = await knex('operation_logs')
      .insert({
        organization_id: org.organizationId,
        actor_user_id: org.ownerId,
        action: 'auth.signed_in',
        details: JSON.stringify({}),
        created_at: app.clock.now(),
        prev_hash: last.hash,
        hash: 'f'.repeat(64),
      })
      .returning('id');
    // A legitimate entry after the forgery chains onto it, but the forged row is still the first bad one.
    await signIn(app, org.loginId);

    const verdict = await oplog.verify(knex, org.organizationId);
    expect(verdict.firstBadId).toBe(Number(forged.id));
    const before = await knex('operation_logs')
      .where({ organization_id: org.organizationId })
      .where('id', '<', forged.id)
      .count({ n: '*' });
    expect(verdict.checked).toBe(Number(before[0]!.n));
  });

  it('refuses to update or delete an operation log row', async () => {
    const { knex } = app.service.deps;
    const org = await signUpOrganization(app);
    const row = await knex('operation_logs').where({ organization_id: org.organizationId }).first('id');
    await expect(knex('operation_logs').where({ id: row.id }).update({ action: 'tampered' })).rejects.toThrow(
      /append-only/,
    );
    await expect(knex('operation_logs').where({ id: row.id }).delete()).rejects.toThrow(/append-only/);
  });
});
