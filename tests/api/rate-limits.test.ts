/*
 * Each rate limit of core/access/rate-limits.ts at its production budget (KEIYAKU_RATE_LIMIT_SCALE=1): the request
 * over it answers 429 TOO_MANY_REQUESTS, a JSON:API error in ja and en, with Retry-After; the counters live in the
 * database, so a second API process on it sees the same budget.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RECOVERY_JOB } from '../../core/auth/recovery.ts';
import { RATE_LIMIT_POLICIES, type RateLimitName } from '../../core/access/rate-limits.ts';
import { ERROR_CATALOGUE } from '../../core/http/errors.ts';
import {
  currentTermsId,
  PASSWORD,
  signedInOwner,
  signIn,
  signInBody,
  signUpOrganization,
  uniqueLoginId,
} from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';
import { readOutbox, recipientOf } from '../helpers/mail.ts';
import { secondInstance } from '../helpers/second-instance.ts';

const WRONG = 'wrong-password1';
const RECOVERY_SUBJECTS = ['【Keiyaku】パスワード再設定のご案内', '【Keiyaku】ユーザーIDのお知らせ'];
const from = (ip: string) => ({ 'x-forwarded-for': ip });

let app: TestApp;
beforeAll(async () => {
  app = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '1' } });
});
afterAll(() => app.close());

/** Forgets every counter: each test starts with whole budgets (its own set-up requests count too). */
async function resetCounters() {
  await app.service.deps.knex('rate_limits').delete();
}
beforeEach(resetCounters);

/** The 429 of a rate limit: one JSON:API error in both languages, and a Retry-After within the policy's window. */
function expectTooMany(response: CallResult, policy: RateLimitName) {
  expect(response.status, JSON.stringify(response.body)).toBe(429);
  expect(response.body.errors).toHaveLength(1);
  const [error] = response.body.errors;
  expect(error).toMatchObject({
    status: '429',
    code: 'TOO_MANY_REQUESTS',
    traceId: response.headers.get('x-request-id'),
    meta: { messages: { ja: ERROR_CATALOGUE.TOO_MANY_REQUESTS.ja, en: ERROR_CATALOGUE.TOO_MANY_REQUESTS.en } },
  });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(RATE_LIMIT_POLICIES[policy].windowSeconds);
  return error;
}

const budget = (policy: RateLimitName) => RATE_LIMIT_POLICIES[policy].points;

describe('sign-in', () => {
  it('allows 10 attempts a minute on one user ID from one address; the 11th is 429, other addresses still reach the lock', async () => {
    const loginId = uniqueLoginId('target');
    const ip = from('198.51.100.10');
    const statuses: number[] = [];
    for (let i = 0; i < budget('signInPerIpAndLoginId'); i++) {
      statuses.push((await app.api.call('signIn', { body: signInBody(loginId, WRONG), headers: ip })).status);
    }
    // The per-ID lock answers from the fifth on; the limit is counted on top of it.
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429, 429, 429]);
    expectTooMany(
      await app.api.call('signIn', { body: signInBody(loginId, WRONG), headers: ip }),
      'signInPerIpAndLoginId',
    );
    const elsewhere = await app.api.call('signIn', {
      body: signInBody(loginId, WRONG),
      headers: from('198.51.100.11'),
    });
    expect(elsewhere.body.errors[0].code).toBe('ACCOUNT_LOCKED');
  });

  it('allows 100 failed sign-ins per 15 minutes from one address, giving successes back; the 101st failure is 429', async () => {
    const ip = from('198.51.100.20');
    const org = await signUpOrganization(app);
    await resetCounters();
    let failures = 0;
    const fail = async (loginId: string) => {
      const response = await app.api.call('signIn', { body: signInBody(loginId, WRONG), headers: ip });
      expect([401, 429]).toContain(response.status);
      expect(response.body.errors[0].code).not.toBe('TOO_MANY_REQUESTS');
      failures += 1;
    };
    // Ten tries on each of ten IDs: within the per-ID budget of 10 a minute.
    for (let id = 0; failures < budget('signInPerIp') - 1; id++) {
      const loginId = uniqueLoginId('spray');
      for (let i = 0; i < 10 && failures < budget('signInPerIp') - 1; i++) await fail(loginId);
    }
    // A colleague behind the same address signs in three times: successes cost nothing.
    for (let i = 0; i < 3; i++) await signIn(app, org.loginId, PASSWORD, ip);
    await fail(uniqueLoginId('spray'));
    expectTooMany(
      await app.api.call('signIn', { body: signInBody(uniqueLoginId('spray'), WRONG), headers: ip }),
      'signInPerIp',
    );
    // The first-password-change form shares the budget.
    const change = await app.api.call('changePasswordAndSignIn', {
      headers: ip,
      body: {
        data: {
          type: 'PasswordChange',
          attributes: {
            loginId: org.loginId,
            currentPassword: WRONG,
            password: 'another-pass2',
            passwordConfirmation: 'another-pass2',
          },
        },
      },
    });
    expectTooMany(change, 'signInPerIp');
    // Another address is not affected.
    await signIn(app, org.loginId, PASSWORD, from('198.51.100.21'));
  }, 120_000); // a hundred sign-ins, fifty of them hashing: slow on the embedded database

  it('answers in English to an English client', async () => {
    const loginId = uniqueLoginId('english');
    const ip = from('198.51.100.30');
    for (let i = 0; i < budget('signInPerIpAndLoginId'); i++) {
      await app.api.call('signIn', { body: signInBody(loginId, WRONG), headers: ip });
    }
    const response = await app.api.call('signIn', {
      body: signInBody(loginId, WRONG),
      headers: { ...ip, 'accept-language': 'en' },
    });
    const error = expectTooMany(response, 'signInPerIpAndLoginId');
    expect(error.title).toBe('Too many requests. Please wait a while and try again.');
  });
});

describe('sign-up', () => {
  const signUp = async (loginId: string, headers: Record<string, string>) => {
    const attributes = {
      organizationName: '株式会社レート',
      loginId,
      userName: '山田 花子',
      email: `${loginId}@example.com`,
      password: PASSWORD,
      passwordConfirmation: PASSWORD,
      acceptTermId: await currentTermsId(app),
    };
    return app.api.call('signUp', { body: { data: { type: 'SignUp', attributes } }, headers });
  };

  it('allows 10 attempts an hour per address, refused ones included, so user IDs cannot be probed faster', async () => {
    const taken = await signUpOrganization(app);
    await resetCounters();
    const ip = from('198.51.100.40');
    for (let i = 0; i < budget('signUpPerIp') - 1; i++) {
      const probe = await signUp(i % 2 === 0 ? taken.loginId : uniqueLoginId('free'), ip);
      expect(probe.status).toBe(i % 2 === 0 ? 422 : 201);
    }
    expect((await signUp(taken.loginId, ip)).body.errors[0].code).toBe('LOGIN_ID_TAKEN');
    // Over the budget a taken ID and a free one answer alike: nothing tells them apart.
    const takenOver = expectTooMany(await signUp(taken.loginId, ip), 'signUpPerIp');
    const freeOver = expectTooMany(await signUp(uniqueLoginId('free'), ip), 'signUpPerIp');
    expect({ ...takenOver, traceId: null }).toEqual({ ...freeOver, traceId: null });
    expect((await signUp(uniqueLoginId('free'), from('198.51.100.41'))).status).toBe(201);
  });

  it('holds across two API processes on one database', async () => {
    const second = await secondInstance(app);
    try {
      const ip = from('198.51.100.42');
      const attributes = async () => ({
        organizationName: '株式会社ふたつ',
        loginId: uniqueLoginId('pair'),
        userName: '山田 次郎',
        email: 'pair@example.com',
        password: PASSWORD,
        passwordConfirmation: PASSWORD,
        acceptTermId: await currentTermsId(app),
      });
      for (let i = 0; i < budget('signUpPerIp'); i++) {
        const api = i % 2 === 0 ? app.api : second.api;
        const response = await api.call('signUp', {
          body: { data: { type: 'SignUp', attributes: await attributes() } },
          headers: ip,
        });
        expect(response.status).toBe(201);
      }
      for (const api of [app.api, second.api]) {
        const over = await api.call('signUp', {
          body: { data: { type: 'SignUp', attributes: await attributes() } },
          headers: ip,
        });
        expectTooMany(over, 'signUpPerIp');
      }
    } finally {
      await second.close();
    }
  });
});

describe('password reset and user-ID reminder mails', () => {
  const reset = (loginId: string, email: string, ip: string) =>
    app.api.call('requestPasswordReset', {
      body: { data: { type: 'PasswordResetRequest', attributes: { loginId, email } } },
      headers: from(ip),
    });
  const remind = (email: string, ip: string) =>
    app.api.call('requestUserIdReminder', {
      body: { data: { type: 'UserIdReminder', attributes: { email } } },
      headers: from(ip),
    });

  async function queuedFor(email: string): Promise<number> {
    const { rows } = await app.service.deps.knex.raw(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = ? AND lower(data->>'email') = lower(?)`,
      [RECOVERY_JOB, email],
    );
    return rows[0].n;
  }

  it('sends at most 5 mails an hour to one address: 61 requests from 61 addresses through both forms', async () => {
    const org = await signUpOrganization(app);
    const email = org.email;
    // Any letter case is the same mailbox.
    const spellings = [email, email.toUpperCase(), ` ${email}`.trim().replace(/^./, (c) => c.toUpperCase())];
    const responses = await Promise.all(
      Array.from({ length: 61 }, (_, i) => {
        const ip = `203.0.113.${i + 1}`;
        const address = spellings[i % spellings.length]!;
        return i % 2 === 0 ? reset(org.loginId, address, ip) : remind(address, ip);
      }),
    );
    const allowed = budget('recoveryMailPerAddress');
    expect(responses.filter((r) => r.status === 202)).toHaveLength(allowed);
    for (const r of responses.filter((r) => r.status !== 202)) expectTooMany(r, 'recoveryMailPerAddress');
    expect(await queuedFor(email)).toBe(allowed);

    // Each accepted request mails the account; the refused ones mail nothing.
    const delivered = async () =>
      (await readOutbox(app)).filter(
        (m) =>
          RECOVERY_SUBJECTS.includes(m.subject ?? '') && recipientOf(m).toLowerCase().includes(email.toLowerCase()),
      ).length;
    const deadline = Date.now() + 20_000;
    while ((await delivered()) < allowed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const { rows } = await app.service.deps.knex.raw(
      `SELECT count(*)::int AS n FROM pgboss.job WHERE name = ? AND lower(data->>'email') = lower(?) AND state <> 'completed'`,
      [RECOVERY_JOB, email],
    );
    expect(rows[0].n).toBe(0);
    expect(await delivered()).toBe(allowed);
  });

  it('allows 20 requests an hour from one address of the caller, whatever e-mail addresses they name', async () => {
    const ip = '203.0.113.200';
    for (let i = 0; i < budget('recoveryPerIp'); i++) {
      const email = `someone-${i}-${randomUUID()}@example.com`;
      expect((i % 2 === 0 ? await remind(email, ip) : await reset('someone', email, ip)).status).toBe(202);
    }
    expectTooMany(await remind(`late-${randomUUID()}@example.com`, ip), 'recoveryPerIp');
    expect((await remind(`late-${randomUUID()}@example.com`, '203.0.113.201')).status).toBe(202);
  });
});

describe('link tokens', () => {
  it('allows 30 wrong reset-link tokens per 15 minutes from one address, checks and resets together', async () => {
    const ip = from('198.51.100.50');
    for (let i = 0; i < budget('resetLinkPerIp'); i++) {
      const token = randomUUID();
      const response =
        i % 2 === 0
          ? await app.api.call('verifyPasswordResetToken', {
              body: { data: { type: 'PasswordResetVerification', attributes: { token } } },
              headers: ip,
            })
          : await app.api.call('resetPassword', {
              body: {
                data: {
                  type: 'PasswordReset',
                  attributes: { token, password: 'fresh-pass7x', passwordConfirmation: 'fresh-pass7x' },
                },
              },
              headers: ip,
            });
      expect(response.body.errors[0].code).toBe('PASSWORD_RESET_LINK_INVALID');
    }
    const over = await app.api.call('verifyPasswordResetToken', {
      body: { data: { type: 'PasswordResetVerification', attributes: { token: randomUUID() } } },
      headers: ip,
    });
    expectTooMany(over, 'resetLinkPerIp');
  });

  it('allows 30 wrong e-mail confirmation tokens per 15 minutes from one address', async () => {
    const ip = from('198.51.100.60');
    const confirm = () =>
      app.api.call('confirmEmail', {
        body: { data: { type: 'EmailConfirmation', attributes: { token: `${randomUUID()}${randomUUID()}` } } },
        headers: ip,
      });
    for (let i = 0; i < budget('confirmationLinkPerIp'); i++) {
      expect((await confirm()).body.errors[0].code).toBe('EMAIL_CONFIRMATION_LINK_INVALID');
    }
    expectTooMany(await confirm(), 'confirmationLinkPerIp');
  });
});

describe('per signed-in user', () => {
  async function user() {
    const owner = await signedInOwner(app);
    await resetCounters();
    return owner;
  }

  it('mails at most 5 e-mail confirmation links an hour', async () => {
    const { token } = await user();
    for (let i = 0; i < budget('confirmationMailPerUser'); i++) {
      expect((await app.api.call('requestEmailConfirmation', { token })).status).toBe(202);
    }
    expectTooMany(await app.api.call('requestEmailConfirmation', { token }), 'confirmationMailPerUser');
    const other = await signedInOwner(app);
    expect((await app.api.call('requestEmailConfirmation', { token: other.token })).status).toBe(202);
  });

  it('asks for at most 5 signing codes per 15 minutes', async () => {
    const { token } = await user();
    const request = () => app.api.call('requestSigningCode', { token, params: { taskId: randomUUID() } });
    for (let i = 0; i < budget('signingCodePerUser'); i++) expect((await request()).status).toBe(404);
    expectTooMany(await request(), 'signingCodePerUser');
  });

  it('allows 30 refused signings per 15 minutes', async () => {
    const { token } = await user();
    const sign = () =>
      app.api.call('signTask', {
        token,
        params: { taskId: randomUUID() },
        body: { data: { type: 'TaskSignature', attributes: { code: '123456' } } },
      });
    for (let i = 0; i < budget('signingFailuresPerUser'); i++) expect((await sign()).status).toBe(404);
    expectTooMany(await sign(), 'signingFailuresPerUser');
  });

  it('allows 60 uploads per 10 minutes across documents, seal images and e-certificates', async () => {
    const { token } = await user();
    const uploads = [
      () => app.api.call('uploadDocument', { token, params: { businessFlowId: randomUUID() } }),
      () => app.api.call('reuploadDocument', { token, params: { documentId: randomUUID() } }),
      () => app.api.call('createMySealImage', { token }),
    ];
    for (let i = 0; i < budget('uploadsPerUser'); i++) {
      const response = await uploads[i % uploads.length]!();
      expect(response.body.errors[0].code).not.toBe('TOO_MANY_REQUESTS');
    }
    for (const upload of uploads) expectTooMany(await upload(), 'uploadsPerUser');
    expectTooMany(await app.api.call('registerMyECertificate', { token }), 'uploadsPerUser');
  });

  it('verifies at most 30 PDFs per 10 minutes', async () => {
    const { token } = await user();
    const verify = () => app.api.call('verifySignatures', { token });
    for (let i = 0; i < budget('verificationsPerUser'); i++) {
      expect((await verify()).body.errors[0].code).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
    expectTooMany(await verify(), 'verificationsPerUser');
  });
});

describe('the counters', () => {
  it('keep no IP, login ID or e-mail address in clear', async () => {
    const loginId = uniqueLoginId('secret');
    await app.api.call('signIn', { body: signInBody(loginId, WRONG), headers: from('198.51.100.99') });
    const keys = (await app.service.deps.knex('rate_limits').pluck('key')) as string[];
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(key).toMatch(/^[a-zA-Z]+:[0-9a-f]{64}$/);
      expect(key).not.toContain(loginId);
      expect(key).not.toContain('198.51.100.99');
    }
  });
});
