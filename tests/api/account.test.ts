/*
 * The account screen's operations, through the API: the user's own name, language and mobile number (updateMe),
 * the password change (changeMyPassword: current password, the policy, reuse, the rate limit), and the sign-in
 * sessions (listMySessions, signOutOtherSessions, signOutSession) — a signed-out session's refresh fails and its
 * access token stops working at once; another user's session is out of reach; a guest's token is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberToken, PASSWORD, signIn, signInBody, signUpOrganization } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';
import { signedInGuest } from '../helpers/one-time.ts';
import { seedTaskWorld } from '../helpers/tasks.ts';

let app: TestApp;
beforeAll(async () => {
  // Several sign-ups and sign-ins from one address: the per-IP limits have tests of their own.
  app = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '100' } });
});
afterAll(() => app?.close());

const knex = () => app.service.deps.knex;

interface Pair {
  authorizationToken: string;
  refreshToken: string;
}

function expectError(response: CallResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
}

const meBody = (attributes: Record<string, unknown>) => ({ data: { type: 'User', attributes } });
const passwordBody = (currentPassword: string, password: string, passwordConfirmation = password) => ({
  data: { type: 'PasswordChange', attributes: { currentPassword, password, passwordConfirmation } },
});

async function me(token: string) {
  const response = await app.api.call('getCurrentUser', { token });
  expect(response.status).toBe(200);
  return response.body.data.attributes;
}

const refresh = (pair: Pair) => app.api.call('refreshAuth', { body: { data: { type: 'Auth', attributes: pair } } });

/** Signs `loginId` in from a browser of its own (user agent and address), accepting the terms on the way. */
async function signInFrom(loginId: string, userAgent: string, ip: string, password = PASSWORD): Promise<Pair> {
  return signIn(app, loginId, password, { 'user-agent': userAgent, 'x-forwarded-for': ip });
}

async function logged(action: string, userId: string) {
  return knex()('operation_logs').where({ action, actor_user_id: userId }).orderBy('id');
}

describe('updateMe: name, language and the mobile number for SMS codes', () => {
  it('changes the name, the language and the mobile number (stored as digits), and logs it', async () => {
    const org = await signUpOrganization(app);
    const { authorizationToken: token } = await signIn(app, org.loginId);
    const before = await me(token);
    expect(before.mobilePhone).toBeNull();

    const changed = await app.api.call('updateMe', {
      token,
      body: meBody({
        lockVersion: before.lockVersion,
        name: '  佐藤 花子 ',
        locale: 'en',
        mobilePhone: '090-1234-5678',
      }),
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ name: '佐藤 花子', locale: 'en', mobilePhone: '09012345678' });
    expect(changed.body.data.attributes.lockVersion).toBe(before.lockVersion + 1);
    const row = await knex()('users').where({ id: org.ownerId }).first('name', 'locale', 'mobile_phone');
    expect(row).toEqual({ name: '佐藤 花子', locale: 'en', mobile_phone: '09012345678' });
    // A stale lock version (another tab changed the account meanwhile) changes nothing.
    const refused = await app.api.call('updateMe', { token, body: meBody({ lockVersion: 0, name: 'x' }) });
    expectError(refused, 409, 'UPDATED_BY_ANOTHER_USER');
    expect((await me(token)).name).toBe('佐藤 花子');

    const [entry] = await logged('user.updated_self', org.ownerId);
    expect(entry).toMatchObject({ target_type: 'user', target_id: org.ownerId });
    expect(entry.details.changed).toEqual(['name', 'locale', 'mobilePhone']);

    // Only what is sent changes; an empty number clears it.
    const cleared = await app.api.call('updateMe', {
      token,
      body: meBody({ lockVersion: changed.body.data.attributes.lockVersion, mobilePhone: '' }),
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.attributes).toMatchObject({ name: '佐藤 花子', locale: 'en', mobilePhone: null });
  });

  it('refuses what SMS could not use and an empty name, every problem at its field; nothing changes', async () => {
    const org = await signUpOrganization(app);
    const { authorizationToken: token } = await signIn(app, org.loginId);
    const { lockVersion } = await me(token);
    const update = (attributes: Record<string, unknown>) =>
      app.api.call('updateMe', { token, body: meBody({ lockVersion, ...attributes }) });

    // A landline, too short, letters: the SMS gateway takes only 060/070/080/090 and 8 more digits.
    for (const number of ['0312345678', '0901234567', '090123456789', '09O12345678', '05012345678']) {
      const refused = await update({ mobilePhone: number });
      expectError(refused, 422, 'SMS_MOBILE_PHONE_INVALID');
      expect(refused.body.errors[0].source).toEqual({ pointer: '/data/attributes/mobilePhone' });
    }
    expectError(await update({ name: '   ' }), 422, 'VALIDATION_FAILED');
    const both = await update({ name: ' ', mobilePhone: '0312345678' });
    expectError(both, 422, 'VALIDATION_FAILED');
    expect(
      both.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer]),
    ).toEqual(
      expect.arrayContaining([
        ['VALIDATION_FAILED', '/data/attributes/name'],
        ['SMS_MOBILE_PHONE_INVALID', '/data/attributes/mobilePhone'],
      ]),
    );
    // The contract's own checks: a language we do not have, a name over 100 characters, a field of the admin form.
    expectError(await update({ locale: 'fr' }), 422, 'VALIDATION_FAILED');
    expectError(await update({ name: 'あ'.repeat(101) }), 422, 'VALIDATION_FAILED');
    expect((await update({ isAdmin: true })).status).toBe(422);
    expect((await update({ email: 'other@example.com' })).status).toBe(422);

    const after = await me(token);
    expect(after).toMatchObject({ name: '山田 太郎', locale: 'ja', mobilePhone: null, lockVersion, isAdmin: true });
    // Other valid prefixes and separators are accepted.
    expect((await update({ mobilePhone: '(070) 1234 5678' })).body.data.attributes.mobilePhone).toBe('07012345678');
  });
});

describe('changeMyPassword from the account screen', () => {
  it('refuses a wrong current password, the policy and reuse; a right one changes it and ends the other sessions', async () => {
    const org = await signUpOrganization(app);
    const here = await signInFrom(org.loginId, 'Here/1.0', '203.0.113.10');
    const there = await signInFrom(org.loginId, 'There/1.0', '203.0.113.11');
    const NEW = 'brand-new-pass9';

    const wrong = await app.api.call('changeMyPassword', {
      token: here.authorizationToken,
      body: passwordBody('not-my-password1', NEW),
    });
    expectError(wrong, 422, 'CURRENT_PASSWORD_WRONG');
    expect(wrong.body.errors[0].source).toEqual({ pointer: '/data/attributes/currentPassword' });
    expect(await logged('auth.current_password_failed', org.ownerId)).toHaveLength(1);

    const change = (password: string, confirmation = password) =>
      app.api.call('changeMyPassword', {
        token: here.authorizationToken,
        body: passwordBody(PASSWORD, password, confirmation),
      });
    expectError(await change('short1'), 422, 'PASSWORD_TOO_SHORT');
    expectError(await change(NEW, `${NEW}x`), 422, 'PASSWORD_CONFIRMATION_MISMATCH');
    expectError(await change(PASSWORD), 422, 'PASSWORD_SAME_AS_CURRENT');
    expect(await logged('auth.password_changed', org.ownerId)).toHaveLength(0);

    const changed = await change(NEW);
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    expect(await logged('auth.password_changed', org.ownerId)).toHaveLength(1);
    // The calling session stays, the other ended; the old password no longer signs in, the new one does.
    expect((await app.api.call('getCurrentUser', { token: here.authorizationToken })).status).toBe(200);
    expectError(await app.api.call('getCurrentUser', { token: there.authorizationToken }), 401, 'SESSION_REVOKED');
    expectError(await refresh(there), 401, 'SESSION_REVOKED');
    expect((await app.api.call('signIn', { body: signInBody(org.loginId, PASSWORD) })).status).toBe(401);
    await signIn(app, org.loginId, NEW);
  });

  it('limits password changes per user: the 11th within 15 minutes is 429 TOO_MANY_REQUESTS', async () => {
    // Its own service with the production budgets (this file's app runs with scaled-up ones).
    const limited = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '1' } });
    try {
      const org = await signUpOrganization(limited);
      const { authorizationToken: token } = await signIn(limited, org.loginId);
      // Right current password, so the sign-in lock is not what answers; the confirmation differs, nothing changes.
      const attempt = () =>
        limited.api.call('changeMyPassword', { token, body: passwordBody(PASSWORD, 'brand-new-pass9', 'nope') });
      for (let i = 0; i < 10; i += 1) expectError(await attempt(), 422, 'PASSWORD_CONFIRMATION_MISMATCH');
      const refused = await attempt();
      expect(refused.status, JSON.stringify(refused.body)).toBe(429);
      expect(refused.body.errors[0].code).toBe('TOO_MANY_REQUESTS');
    } finally {
      await limited.close();
    }
  });
});

describe('sessions: list, sign out the others, sign out one', () => {
  it('lists the live sessions with browser, address and times, the calling one marked', async () => {
    const org = await signUpOrganization(app);
    const first = await signInFrom(org.loginId, 'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0', '198.51.100.7');
    app.clock.advance(2 * 60_000);
    const second = await signInFrom(org.loginId, 'Mozilla/5.0 (iPhone) Safari/605.1', '198.51.100.8');
    // An ended one is not listed.
    const ended = await signInFrom(org.loginId, 'Ended/1.0', '198.51.100.9');
    expect((await app.api.call('signOut', { token: ended.authorizationToken })).status).toBe(204);

    const listed = await app.api.call('listMySessions', { token: first.authorizationToken });
    expect(listed.status).toBe(200);
    const sessions = listed.body.data;
    // Last used first: the calling session has just been used (this request), the phone two minutes later than
    // the first sign-in but before this request.
    expect(sessions.map((s: { attributes: { userAgent: string } }) => s.attributes.userAgent)).toEqual([
      'Mozilla/5.0 (Windows NT 10.0) Chrome/131.0',
      'Mozilla/5.0 (iPhone) Safari/605.1',
    ]);
    expect(sessions[0].attributes).toMatchObject({ ip: '198.51.100.7', current: true });
    expect(sessions[1].attributes).toMatchObject({ ip: '198.51.100.8', current: false });
    expect(new Date(sessions[1].attributes.createdAt).getTime()).toBeGreaterThan(
      new Date(sessions[0].attributes.createdAt).getTime(),
    );
    expect(new Date(sessions[0].attributes.lastUsedAt).getTime()).toBeGreaterThan(
      new Date(sessions[1].attributes.lastUsedAt).getTime(),
    );
    const fromSecond = await app.api.call('listMySessions', { token: second.authorizationToken });
    expect(fromSecond.body.data.find((s: { attributes: { current: boolean } }) => s.attributes.current).id).toBe(
      sessions[1].id,
    );
  });

  it("signs out every other session: their access tokens stop at once and their refresh fails; the caller's stays", async () => {
    const org = await signUpOrganization(app);
    const mine = await signInFrom(org.loginId, 'Mine/1.0', '192.0.2.1');
    const other = await signInFrom(org.loginId, 'Other/1.0', '192.0.2.2');
    const third = await signInFrom(org.loginId, 'Third/1.0', '192.0.2.3');
    // Another user's sessions of the same organization are not the caller's.
    const colleague = await signUpOrganization(app);
    const theirs = await signIn(app, colleague.loginId);

    const done = await app.api.call('signOutOtherSessions', { token: mine.authorizationToken });
    expect(done.status, JSON.stringify(done.body)).toBe(204);
    for (const ended of [other, third]) {
      expectError(await app.api.call('getCurrentUser', { token: ended.authorizationToken }), 401, 'SESSION_REVOKED');
      expectError(await refresh(ended), 401, 'SESSION_REVOKED');
    }
    expect((await app.api.call('getCurrentUser', { token: mine.authorizationToken })).status).toBe(200);
    expect((await refresh(mine)).status).toBe(200);
    expect((await app.api.call('getCurrentUser', { token: theirs.authorizationToken })).status).toBe(200);
    const [entry] = await logged('auth.other_sessions_signed_out', org.ownerId);
    expect(entry.details).toEqual({ count: 2 });
    const rows = await knex()('auth_sessions').where({ user_id: org.ownerId }).whereNotNull('revoked_at');
    expect(rows.map((r: { revoked_reason: string }) => r.revoked_reason)).toEqual([
      'signed-out-by-user',
      'signed-out-by-user',
    ]);
  });

  it("signs out one session of the caller's; another user's session (a colleague's too) is 404", async () => {
    const org = await signUpOrganization(app);
    const mine = await signInFrom(org.loginId, 'Mine/1.0', '192.0.2.10');
    const laptop = await signInFrom(org.loginId, 'Laptop/1.0', '192.0.2.11');
    const listed = await app.api.call('listMySessions', { token: mine.authorizationToken });
    const laptopId = listed.body.data.find((s: { attributes: { current: boolean } }) => !s.attributes.current).id;

    const done = await app.api.call('signOutSession', {
      token: mine.authorizationToken,
      params: { sessionId: laptopId },
    });
    expect(done.status).toBe(204);
    expectError(await app.api.call('getCurrentUser', { token: laptop.authorizationToken }), 401, 'SESSION_REVOKED');
    expectError(await refresh(laptop), 401, 'SESSION_REVOKED');
    expect((await app.api.call('getCurrentUser', { token: mine.authorizationToken })).status).toBe(200);
    expect(await logged('auth.session_signed_out', org.ownerId)).toHaveLength(1);
    // Already ended, or never there.
    expectError(
      await app.api.call('signOutSession', { token: mine.authorizationToken, params: { sessionId: laptopId } }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await app.api.call('signOutSession', {
        token: mine.authorizationToken,
        params: { sessionId: '00000000-0000-4000-8000-000000000000' },
      }),
      404,
      'NOT_FOUND',
    );

    // Tenancy: neither a colleague (even an administrator) nor a user of another organization can end (or see)
    // this user's session.
    const listedMine = await app.api.call('listMySessions', { token: mine.authorizationToken });
    const mineId = listedMine.body.data[0].id;
    const colleague = await memberToken(app, org.organizationId, { is_admin: true });
    const stranger = (await signIn(app, (await signUpOrganization(app)).loginId)).authorizationToken;
    for (const token of [colleague, stranger]) {
      expectError(await app.api.call('signOutSession', { token, params: { sessionId: mineId } }), 404, 'NOT_FOUND');
      const theirs = await app.api.call('listMySessions', { token });
      expect(theirs.body.data.map((s: { id: string }) => s.id)).not.toContain(mineId);
    }
    expect((await app.api.call('getCurrentUser', { token: mine.authorizationToken })).status).toBe(200);
  });

  it("refuses a one-time user's (guest's) token on every account operation: 401", async () => {
    const w = await seedTaskWorld(app);
    const guest = await signedInGuest(app, w.ownerA.token, w.flowId, { acceptTerms: true });
    const token = guest.authorizationToken;
    const calls = [
      app.api.call('listMySessions', { token }),
      app.api.call('signOutOtherSessions', { token }),
      app.api.call('signOutSession', { token, params: { sessionId: '00000000-0000-4000-8000-000000000000' } }),
      app.api.call('updateMe', { token, body: meBody({ lockVersion: 0, name: 'Guest' }) }),
      app.api.call('changeMyPassword', { token, body: passwordBody('x', 'brand-new-pass9') }),
    ];
    for (const response of await Promise.all(calls)) expect(response.status, JSON.stringify(response.body)).toBe(401);
  });
});
