/*
 * The sign-in lock under parallel requests: every password check is reserved before it runs (core/auth/throttle.ts),
 * so a burst from many addresses gets at most 5 checks per login ID, whether it arrives at one API process or two,
 * and a right password inside the burst does not sign in. PUT /me/password counts wrong current passwords toward
 * the same lock, and the 6-digit signing codes lock the same way under a burst.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../../core/auth/throttle.ts';
import { CODE_MAX_FAILURES } from '../../core/modules/signing/codes.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { PASSWORD, signIn, signInBody, signUpOrganization, uniqueLoginId } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';
import { secondInstance } from '../helpers/second-instance.ts';
import { confirmEmailOf, signTaskCall, waitForSmsCode } from '../helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld } from '../helpers/tasks.ts';

const WRONG = 'wrong-password1';

/** A distinct client address per request (TEST-NET ranges): the burst of a botnet, not of one address. */
const address = (i: number) => ({ 'x-forwarded-for': `198.51.100.${i + 1}` });

/** Password checks that ran for a login ID: each wrong one leaves one of these operation log rows. */
async function passwordChecks(app: TestApp, loginId: string, actions = ['auth.sign_in_failed', 'auth.locked']) {
  const { n } = await app.service.deps
    .knex('operation_logs')
    .whereIn('action', actions)
    .whereRaw(`details->>'loginId' = ?`, [loginId])
    .first(app.service.deps.knex.raw('count(*)::int AS n'));
  return n as number;
}

function expectError(response: CallResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
}

function statusCounts(responses: CallResult[]) {
  const counts: Record<string, number> = {};
  for (const r of responses) {
    const key = `${r.status} ${r.body?.errors?.[0]?.code ?? ''}`.trim();
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

let app: TestApp;
beforeAll(async () => {
  // The production budgets: the burst comes from 50 addresses, so only the per-ID lock stands in its way.
  app = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '1' } });
});
afterAll(() => app.close());

describe('sign-in lock under a burst of parallel requests', () => {
  it('checks at most 5 passwords of 50 parallel wrong ones, then answers 429 ACCOUNT_LOCKED', async () => {
    const org = await signUpOrganization(app);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.api.call('signIn', { body: signInBody(org.loginId, WRONG), headers: address(i) }),
      ),
    );
    expect(await passwordChecks(app, org.loginId)).toBeLessThanOrEqual(MAX_FAILURES);
    expect(statusCounts(responses)).toEqual({ '401 INVALID_CREDENTIALS': 4, '429 ACCOUNT_LOCKED': 46 });
    for (const r of responses.filter((r) => r.status === 429)) {
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const row = await app.service.deps.knex('sign_in_throttles').where({ login_id: org.loginId }).first();
    expect(row.failure_count).toBe(MAX_FAILURES);
    expect(row.locked_until).not.toBeNull();
  });

  it('does not sign in with the right password sent inside the burst, and the ID stays locked', async () => {
    const org = await signUpOrganization(app);
    const burst = Array.from({ length: 50 }, (_, i) => (i === 49 ? org.password : WRONG));
    const responses = await Promise.all(
      burst.map((password, i) =>
        app.api.call('signIn', { body: signInBody(org.loginId, password), headers: address(i) }),
      ),
    );
    expectError(responses[49]!, 429, 'ACCOUNT_LOCKED');
    expect(responses.filter((r) => r.status === 201)).toHaveLength(0);
    expect(await passwordChecks(app, org.loginId)).toBeLessThanOrEqual(MAX_FAILURES);
    expectError(await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }), 429, 'ACCOUNT_LOCKED');
  });

  it('treats an unknown login ID the same: 5 checks, the rest 429', async () => {
    const loginId = uniqueLoginId('nobody');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        app.api.call('signIn', { body: signInBody(loginId, WRONG), headers: address(i) }),
      ),
    );
    expect(statusCounts(responses)).toEqual({ '401 INVALID_CREDENTIALS': 4, '429 ACCOUNT_LOCKED': 46 });
    expect(await passwordChecks(app, loginId)).toBe(MAX_FAILURES);
  });

  it('lets a right password inside the budget sign in and clear the count', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < MAX_FAILURES - 1; i++) {
      expectError(await app.api.call('signIn', { body: signInBody(org.loginId, WRONG) }), 401, 'INVALID_CREDENTIALS');
    }
    await signIn(app, org.loginId);
    expect(await app.service.deps.knex('sign_in_throttles').where({ login_id: org.loginId })).toHaveLength(0);
  });
});

describe('wrong current passwords on PUT /me/password', () => {
  const change = (token: string, currentPassword: string, headers?: Record<string, string>) =>
    app.api.call('changeMyPassword', {
      token,
      headers,
      body: {
        data: {
          type: 'PasswordChange',
          attributes: { currentPassword, password: 'brand-new-pass9', passwordConfirmation: 'brand-new-pass9' },
        },
      },
    });

  it('locks after 5 wrong current passwords: 422 four times, then 429 ACCOUNT_LOCKED, and sign-in is locked too', async () => {
    const org = await signUpOrganization(app);
    const { authorizationToken: token } = await signIn(app, org.loginId);
    for (let i = 0; i < MAX_FAILURES - 1; i++) expectError(await change(token, WRONG), 422, 'CURRENT_PASSWORD_WRONG');
    const locked = await change(token, WRONG);
    expectError(locked, 429, 'ACCOUNT_LOCKED');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(890);
    // Even the right current password is refused now, and so is signing in.
    expectError(await change(token, org.password), 429, 'ACCOUNT_LOCKED');
    expectError(await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }), 429, 'ACCOUNT_LOCKED');
    expect(await passwordChecks(app, org.loginId, ['auth.current_password_failed', 'auth.locked'])).toBe(MAX_FAILURES);
  });

  it('checks at most 5 current passwords of 30 parallel guesses', async () => {
    const org = await signUpOrganization(app);
    const { authorizationToken: token } = await signIn(app, org.loginId);
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => change(token, `${WRONG}${i}`)));
    // The per-user limit on password changes (10 per 15 minutes) lets 10 through; the lock settles those.
    expect(statusCounts(responses)).toEqual({
      '422 CURRENT_PASSWORD_WRONG': 4,
      '429 ACCOUNT_LOCKED': 6,
      '429 TOO_MANY_REQUESTS': 20,
    });
    expect(await passwordChecks(app, org.loginId, ['auth.current_password_failed', 'auth.locked'])).toBe(MAX_FAILURES);
  });

  it('forgets wrong current passwords once the right one is given', async () => {
    const org = await signUpOrganization(app);
    const { authorizationToken: token } = await signIn(app, org.loginId);
    for (let i = 0; i < MAX_FAILURES - 1; i++) expectError(await change(token, WRONG), 422, 'CURRENT_PASSWORD_WRONG');
    expect((await change(token, org.password)).status).toBe(204);
    expect(await app.service.deps.knex('sign_in_throttles').where({ login_id: org.loginId })).toHaveLength(0);
  });
});

describe('two API processes on one database', () => {
  it('share the lock: 50 parallel wrong passwords split over both still get at most 5 checks', async () => {
    const second = await secondInstance(app);
    try {
      const org = await signUpOrganization(app);
      const responses = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          (i % 2 === 0 ? app.api : second.api).call('signIn', {
            body: signInBody(org.loginId, WRONG),
            headers: address(i),
          }),
        ),
      );
      expect(statusCounts(responses)).toEqual({ '401 INVALID_CREDENTIALS': 4, '429 ACCOUNT_LOCKED': 46 });
      expect(await passwordChecks(app, org.loginId)).toBe(MAX_FAILURES);
      // The right password is refused by either process.
      const viaSecond = await second.api.call('signIn', { body: signInBody(org.loginId, PASSWORD) });
      expectError(viaSecond, 429, 'ACCOUNT_LOCKED');
    } finally {
      await second.close();
    }
  });
});

describe('two-factor signing codes under a burst', () => {
  it('checks at most 5 of 20 parallel wrong codes; then even the right code is refused', async () => {
    // Scan verdicts are the test's own (tests/helpers/tasks.ts), so the malware-scan plugin is off.
    const signing = await startApp({
      plugins: BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name)),
      env: { KEIYAKU_RATE_LIMIT_SCALE: '1' },
    });
    try {
      const w = await seedTaskWorld(signing);
      await confirmEmailOf(signing, w.userA1.id);
      const phone = `090${String(Date.now()).slice(-8)}`;
      await signing.service.deps.knex('users').where({ id: w.userA1.id }).update({ mobile_phone: phone });
      const documentId = await newDocument(signing, w.ownerA.token, w.flowId);
      const [task] = await plan(signing, w.ownerA.token, documentId, [
        groupTask(1, 'sign', w.g1, { signatureType: 'operator', twoFactor: 'sms' }),
      ]);
      const sent = await signing.api.call('requestSigningCode', {
        token: w.userA1.token,
        params: { taskId: task!.id },
      });
      expect(sent.status).toBe(202);
      const code = await waitForSmsCode(signing, phone);
      const wrong = code === '000000' ? '111111' : '000000';
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => signTaskCall(signing, w.userA1.token, task!.id, { code: wrong })),
      );
      expect(statusCounts(responses)).toEqual({ '422 SIGNING_CODE_INVALID': 4, '429 SIGNING_CODE_LOCKED': 16 });
      const row = await signing.service.deps.knex('signing_codes').where({ task_id: task!.id }).first('attempts');
      expect(row.attempts).toBeLessThanOrEqual(CODE_MAX_FAILURES);
      const right = await signTaskCall(signing, w.userA1.token, task!.id, { code });
      expectError(right, 429, 'SIGNING_CODE_LOCKED');
    } finally {
      await signing.close();
    }
  });
});
