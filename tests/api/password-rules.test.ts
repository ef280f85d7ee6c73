import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  currentTermsId,
  signedInOwner,
  signIn,
  signInBody,
  signUpOrganization,
  uniqueLoginId,
} from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';

const DAY = 86_400_000;
const at = (field: string) => `/data/attributes/${field}`;

/** Asserts a 422 (or other) response carrying exactly these field errors, as [code, pointer] pairs. */
function expectFieldErrors(response: CallResult, status: number, expected: [code: string, pointer: string][]) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  const got = response.body.errors.map((e: { code: string; source?: { pointer: string } }) => [
    e.code,
    e.source?.pointer,
  ]);
  expect(got).toEqual(expected);
  return response.body.errors;
}

function expectError(response: CallResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
  return response.body.errors[0];
}

function passwordChange(attributes: Record<string, string>) {
  return { data: { type: 'PasswordChange', attributes } };
}

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

async function changeMyPassword(
  owner: { token: string; password: string },
  password: string,
  passwordConfirmation = password,
  currentPassword = owner.password,
) {
  return app.api.call('changeMyPassword', {
    token: owner.token,
    body: passwordChange({ currentPassword, password, passwordConfirmation }),
  });
}

async function passwordHashOf(userId: string): Promise<string> {
  return (await app.service.deps.knex('users').where({ id: userId }).first('password_hash')).password_hash;
}

/** Tries a change that must be refused, and checks the stored password did not move. */
async function refusedChange(
  owner: Awaited<ReturnType<typeof signedInOwner>>,
  password: string,
  confirmation = password,
) {
  const before = await passwordHashOf(owner.ownerId);
  const response = await changeMyPassword(owner, password, confirmation);
  expect(await passwordHashOf(owner.ownerId)).toBe(before);
  return response;
}

describe('password rules on changeMyPassword', () => {
  it('accepts a valid new password (204): the new one signs in, the old one no longer does, other sessions end', async () => {
    const owner = await signedInOwner(app);
    const other = await signIn(app, owner.loginId, owner.password);
    const response = await changeMyPassword(owner, 'brand-new-pass9');
    expect(response.status).toBe(204);
    expect((await app.api.call('getCurrentUser', { token: owner.token })).status).toBe(200);
    expectError(await app.api.call('getCurrentUser', { token: other.authorizationToken }), 401, 'SESSION_REVOKED');
    expectError(
      await app.api.call('signIn', { body: signInBody(owner.loginId, owner.password) }),
      401,
      'INVALID_CREDENTIALS',
    );
    await signIn(app, owner.loginId, 'brand-new-pass9');
    const history = await app.service.deps.knex('password_history').where({ user_id: owner.ownerId });
    expect(history).toHaveLength(2);
    expect(history.every((row) => row.password_hash.startsWith('$argon2id$'))).toBe(true);
  });

  it('rejects a password shorter than 8 characters with 422 PASSWORD_TOO_SHORT', async () => {
    const owner = await signedInOwner(app);
    const [error] = expectFieldErrors(await refusedChange(owner, 'abcde12'), 422, [
      ['PASSWORD_TOO_SHORT', at('password')],
    ]);
    expect(error.meta.messages.en).toBe('The password must be at least 8 characters.');
    expect(error.meta.messages.ja).toContain('8文字以上');
  });

  it("rejects a password shorter than the organization's minimum length with 422 PASSWORD_TOO_SHORT", async () => {
    const owner = await signedInOwner(app);
    await app.service.deps
      .knex('password_policies')
      .where({ organization_id: owner.organizationId })
      .update({ min_length: 12 });
    const [error] = expectFieldErrors(await refusedChange(owner, 'abcdefgh123'), 422, [
      ['PASSWORD_TOO_SHORT', at('password')],
    ]);
    expect(error.meta.messages.en).toBe('The password must be at least 12 characters.');
    expect((await changeMyPassword(owner, 'abcdefghi123')).status).toBe(204);
  });

  it('rejects full-width characters with 422 PASSWORD_NOT_HALF_WIDTH', async () => {
    const owner = await signedInOwner(app);
    expectFieldErrors(await refusedChange(owner, 'password1２'), 422, [['PASSWORD_NOT_HALF_WIDTH', at('password')]]);
  });

  it('rejects a password without a lowercase letter with 422 PASSWORD_REQUIRES_LOWERCASE', async () => {
    const owner = await signedInOwner(app);
    expectFieldErrors(await refusedChange(owner, 'PASSWORD123'), 422, [
      ['PASSWORD_REQUIRES_LOWERCASE', at('password')],
    ]);
  });

  it('rejects a password without a digit with 422 PASSWORD_REQUIRES_DIGIT', async () => {
    const owner = await signedInOwner(app);
    expectFieldErrors(await refusedChange(owner, 'password-abc'), 422, [['PASSWORD_REQUIRES_DIGIT', at('password')]]);
  });

  it('rejects a password that contains the user ID with 422 PASSWORD_CONTAINS_USER_ID', async () => {
    const owner = await signedInOwner(app);
    expectFieldErrors(await refusedChange(owner, `x${owner.loginId.toUpperCase()}x1a`), 422, [
      ['PASSWORD_CONTAINS_USER_ID', at('password')],
    ]);
  });

  it('rejects the current password with 422 PASSWORD_SAME_AS_CURRENT', async () => {
    const owner = await signedInOwner(app);
    expectFieldErrors(await refusedChange(owner, owner.password), 422, [['PASSWORD_SAME_AS_CURRENT', at('password')]]);
  });

  it("rejects one of the last N passwords (the organization's reuse count) with 422 PASSWORD_REUSED", async () => {
    const owner = await signedInOwner(app);
    const { knex } = app.service.deps;
    await knex('password_policies').where({ organization_id: owner.organizationId }).update({ reuse_count: 3 });
    const first = owner.password;
    expect((await changeMyPassword(owner, 'second-pass2')).status).toBe(204);
    expect((await changeMyPassword({ ...owner, password: 'second-pass2' }, 'third-pass3')).status).toBe(204);
    const current = { ...owner, password: 'third-pass3' };

    for (const previous of [first, 'second-pass2']) {
      const before = await passwordHashOf(owner.ownerId);
      const [error] = expectFieldErrors(await changeMyPassword(current, previous), 422, [
        ['PASSWORD_REUSED', at('password')],
      ]);
      expect(error.meta.messages.en).toBe('The password must not be one of your last 3 passwords.');
      expect(await passwordHashOf(owner.ownerId)).toBe(before);
    }

    // With a count of 2 the first password has left the window (current and the one before are kept).
    await knex('password_policies').where({ organization_id: owner.organizationId }).update({ reuse_count: 2 });
    expectFieldErrors(await changeMyPassword(current, 'second-pass2'), 422, [['PASSWORD_REUSED', at('password')]]);
    expect((await changeMyPassword(current, first)).status).toBe(204);
  });

  it('rejects a confirmation that does not match with 422 PASSWORD_CONFIRMATION_MISMATCH', async () => {
    const owner = await signedInOwner(app);
    expectFieldErrors(await refusedChange(owner, 'brand-new-pass9', 'brand-new-pass8'), 422, [
      ['PASSWORD_CONFIRMATION_MISMATCH', at('passwordConfirmation')],
    ]);
  });

  it('rejects a wrong current password with 422 CURRENT_PASSWORD_WRONG', async () => {
    const owner = await signedInOwner(app);
    const before = await passwordHashOf(owner.ownerId);
    const response = await changeMyPassword(owner, 'brand-new-pass9', 'brand-new-pass9', 'not-my-password1');
    expectFieldErrors(response, 422, [['CURRENT_PASSWORD_WRONG', at('currentPassword')]]);
    expect(await passwordHashOf(owner.ownerId)).toBe(before);
  });

  it('reports every broken shape rule at once, one error each', async () => {
    const owner = await signedInOwner(app);
    const response = await refusedChange(owner, 'ＡＢＣ', 'other');
    expect(response.status).toBe(422);
    const codes = response.body.errors.map((e: { code: string }) => e.code).sort();
    expect(codes).toEqual(
      [
        'PASSWORD_CONFIRMATION_MISMATCH',
        'PASSWORD_NOT_HALF_WIDTH',
        'PASSWORD_REQUIRES_DIGIT',
        'PASSWORD_REQUIRES_LOWERCASE',
        'PASSWORD_TOO_SHORT',
      ].sort(),
    );
  });
});

describe('password rules on signUp', () => {
  async function signUpWith(loginId: string, password: string, passwordConfirmation = password) {
    return app.api.call('signUp', {
      body: {
        data: {
          type: 'SignUp',
          attributes: {
            organizationName: '株式会社パスワード',
            loginId,
            userName: '佐藤 花子',
            email: `${loginId}@example.com`,
            password,
            passwordConfirmation,
            acceptTermId: await currentTermsId(app),
          },
        },
      },
    });
  }

  const cases: [
    rule: string,
    password: (loginId: string) => string,
    code: string,
    pointer: string,
    confirmation?: string,
  ][] = [
    ['a password shorter than 8 characters', () => 'abcde12', 'PASSWORD_TOO_SHORT', at('password')],
    ['full-width characters', () => 'password1２', 'PASSWORD_NOT_HALF_WIDTH', at('password')],
    ['a password without a lowercase letter', () => 'PASSWORD123', 'PASSWORD_REQUIRES_LOWERCASE', at('password')],
    ['a password without a digit', () => 'password-abc', 'PASSWORD_REQUIRES_DIGIT', at('password')],
    [
      'a password that contains the user ID',
      (loginId) => `${loginId}-pw1`,
      'PASSWORD_CONTAINS_USER_ID',
      at('password'),
    ],
    [
      'a confirmation that does not match',
      () => 'brand-new-pass9',
      'PASSWORD_CONFIRMATION_MISMATCH',
      at('passwordConfirmation'),
      'brand-new-pass8',
    ],
  ];

  for (const [rule, password, code, pointer, confirmation] of cases) {
    it(`rejects ${rule} with 422 ${code} and creates nothing`, async () => {
      const loginId = uniqueLoginId('pwrule');
      const response = await signUpWith(loginId, password(loginId), confirmation ?? password(loginId));
      expectFieldErrors(response, 422, [[code, pointer]]);
      expect(await app.service.deps.knex('users').where({ login_id: loginId })).toHaveLength(0);
    });
  }
});

describe('first password change (temporary password)', () => {
  async function withTemporaryPassword(expiresInMs: number | null) {
    const org = await signUpOrganization(app);
    await app.service.deps
      .knex('users')
      .where({ id: org.ownerId })
      .update({
        must_change_password: true,
        temporary_password_expires_at: expiresInMs === null ? null : new Date(app.clock.now().getTime() + expiresInMs),
      });
    return org;
  }

  it('answers signIn with 403 INITIAL_PASSWORD_CHANGE_REQUIRED, and changePasswordAndSignIn with the temporary password signs in', async () => {
    const org = await withTemporaryPassword(DAY);
    expectError(
      await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }),
      403,
      'INITIAL_PASSWORD_CHANGE_REQUIRED',
    );
    // A wrong password does not reveal the state.
    expectError(
      await app.api.call('signIn', { body: signInBody(org.loginId, 'wrong-password1') }),
      401,
      'INVALID_CREDENTIALS',
    );

    const response = await app.api.call('changePasswordAndSignIn', {
      body: passwordChange({
        loginId: org.loginId,
        currentPassword: org.password,
        password: 'my-own-pass7',
        passwordConfirmation: 'my-own-pass7',
      }),
    });
    expect(response.status).toBe(201);
    const { authorizationToken, refreshToken } = response.body.data.attributes;
    expect(refreshToken).toBeTruthy();
    expect((await app.api.call('getCurrentUser', { token: authorizationToken })).status).toBe(200);

    const user = await app.service.deps.knex('users').where({ id: org.ownerId }).first();
    expect(user.must_change_password).toBe(false);
    expect(user.temporary_password_expires_at).toBeNull();
    // From now on a normal sign-in works with the new password only.
    await signIn(app, org.loginId, 'my-own-pass7');
    expectError(
      await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }),
      401,
      'INVALID_CREDENTIALS',
    );
  });

  it('applies the password rules to the first change (the temporary password cannot be kept)', async () => {
    const org = await withTemporaryPassword(DAY);
    const response = await app.api.call('changePasswordAndSignIn', {
      body: passwordChange({
        loginId: org.loginId,
        currentPassword: org.password,
        password: org.password,
        passwordConfirmation: org.password,
      }),
    });
    expectFieldErrors(response, 422, [['PASSWORD_SAME_AS_CURRENT', at('password')]]);
    const weak = await app.api.call('changePasswordAndSignIn', {
      body: passwordChange({
        loginId: org.loginId,
        currentPassword: org.password,
        password: 'short1',
        passwordConfirmation: 'short1',
      }),
    });
    expectFieldErrors(weak, 422, [['PASSWORD_TOO_SHORT', at('password')]]);
    expect((await app.service.deps.knex('users').where({ id: org.ownerId }).first()).must_change_password).toBe(true);
  });

  it('refuses changePasswordAndSignIn with a wrong current password like a failed sign-in (401 INVALID_CREDENTIALS)', async () => {
    const org = await withTemporaryPassword(DAY);
    const response = await app.api.call('changePasswordAndSignIn', {
      body: passwordChange({
        loginId: org.loginId,
        currentPassword: 'wrong-password1',
        password: 'my-own-pass7',
        passwordConfirmation: 'my-own-pass7',
      }),
    });
    expectError(response, 401, 'INVALID_CREDENTIALS');
  });

  it("refuses changePasswordAndSignIn from an address outside the organization's allow-list with 403 IP_RESTRICTED", async () => {
    const org = await withTemporaryPassword(DAY);
    await app.service.deps
      .knex('ip_restrictions')
      .insert({ organization_id: org.organizationId, cidr: '192.0.2.0/24' });
    const outside = { 'x-forwarded-for': '198.51.100.7' };
    const body = passwordChange({
      loginId: org.loginId,
      currentPassword: org.password,
      password: 'my-own-pass7',
      passwordConfirmation: 'my-own-pass7',
    });
    expectError(await app.api.call('changePasswordAndSignIn', { body, headers: outside }), 403, 'IP_RESTRICTED');
    expect((await app.service.deps.knex('users').where({ id: org.ownerId }).first()).must_change_password).toBe(true);
    const inside = await app.api.call('changePasswordAndSignIn', {
      body,
      headers: { 'x-forwarded-for': '192.0.2.10' },
    });
    expect(inside.status).toBe(201);
  });

  it('answers an expired temporary password with 401 TEMPORARY_PASSWORD_EXPIRED on signIn and on changePasswordAndSignIn', async () => {
    const org = await withTemporaryPassword(-60_000);
    expectError(
      await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }),
      401,
      'TEMPORARY_PASSWORD_EXPIRED',
    );
    const response = await app.api.call('changePasswordAndSignIn', {
      body: passwordChange({
        loginId: org.loginId,
        currentPassword: org.password,
        password: 'my-own-pass7',
        passwordConfirmation: 'my-own-pass7',
      }),
    });
    expectError(response, 401, 'TEMPORARY_PASSWORD_EXPIRED');
    expect((await app.service.deps.knex('users').where({ id: org.ownerId }).first()).must_change_password).toBe(true);
  });
});

describe('expired password', () => {
  it("answers 403 PASSWORD_EXPIRED after the organization's expiry days, and changePasswordAndSignIn renews it", async () => {
    const org = await signUpOrganization(app);
    await app.service.deps
      .knex('password_policies')
      .where({ organization_id: org.organizationId })
      .update({ expiry_days: 30 });
    app.clock.advance(29 * DAY);
    await signIn(app, org.loginId, org.password);
    app.clock.advance(2 * DAY);
    expectError(await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }), 403, 'PASSWORD_EXPIRED');

    const response = await app.api.call('changePasswordAndSignIn', {
      body: passwordChange({
        loginId: org.loginId,
        currentPassword: org.password,
        password: 'renewed-pass4',
        passwordConfirmation: 'renewed-pass4',
      }),
    });
    expect(response.status).toBe(201);
    expect(
      (await app.api.call('getCurrentUser', { token: response.body.data.attributes.authorizationToken })).status,
    ).toBe(200);
    await signIn(app, org.loginId, 'renewed-pass4');
  });
});

describe('terms of use not agreed', () => {
  // Newer terms take effect for everyone, so this runs on an app of its own.
  let termsApp: TestApp;
  beforeAll(async () => {
    termsApp = await startApp();
  });
  afterAll(() => termsApp.close());

  it('answers signIn with 422 TERMS_NOT_AGREED until the user sends the id of the terms in force as acceptTermId', async () => {
    const org = await signUpOrganization(termsApp);
    const oldTermsId = await currentTermsId(termsApp);
    const [newer] = await termsApp.service.deps
      .knex('terms')
      .insert({
        version: 'test-newer',
        title_ja: '改定利用規約',
        title_en: 'Revised terms',
        body_ja: '改定しました。',
        body_en: 'Revised.',
        effective_at: termsApp.clock.now(),
      })
      .returning('id');
    expect(await currentTermsId(termsApp)).toBe(newer.id);

    const refused = await termsApp.api.call('signIn', { body: signInBody(org.loginId, org.password) });
    expectFieldErrors(refused, 422, [['TERMS_NOT_AGREED', at('acceptTermId')]]);
    const stale = await termsApp.api.call('signIn', {
      body: signInBody(org.loginId, org.password, oldTermsId),
    });
    expectFieldErrors(stale, 422, [['TERMS_NOT_AGREED', at('acceptTermId')]]);
    // A refused sign-in starts no session.
    expect(
      await termsApp.service.deps
        .knex('auth_sessions')
        .join('users', 'users.id', 'auth_sessions.user_id')
        .where('users.id', org.ownerId),
    ).toHaveLength(0);

    const accepted = await termsApp.api.call('signIn', {
      body: signInBody(org.loginId, org.password, newer.id),
    });
    expect(accepted.status).toBe(201);
    expect(
      await termsApp.service.deps.knex('term_acceptances').where({ user_id: org.ownerId, term_id: newer.id }),
    ).toHaveLength(1);
    // Once agreed, sign-in no longer asks.
    await signIn(termsApp, org.loginId, org.password);
  });
});
