import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_PASSWORD_POLICY,
  passwordRuleViolations,
  temporaryPasswordFor,
} from '../../core/auth/password-policy.ts';
import { hashOpaqueToken } from '../../core/auth/tokens.ts';
import { currentTermsId, insertUser, memberToken, PASSWORD, signedInOwner, signInBody } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

const DAY = 86_400_000;
const at = (field: string) => `/data/attributes/${field}`;

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const getPolicy = (token: string) => app.api.call('getPasswordPolicy', { token });
const updatePolicy = (token: string, attributes: Record<string, unknown>) =>
  app.api.call('updatePasswordPolicy', { token, body: { data: { type: 'PasswordPolicy', attributes } } });
const changeMine = (token: string, currentPassword: string, password: string) =>
  app.api.call('changeMyPassword', {
    token,
    body: {
      data: { type: 'PasswordChange', attributes: { currentPassword, password, passwordConfirmation: password } },
    },
  });
const codesOf = (response: { body: any }) =>
  response.body.errors.map((e: { code: string; source?: { pointer: string } }) => [e.code, e.source?.pointer]);

describe('password policy API', () => {
  it('starts every organization on the service baseline', async () => {
    const org = await signedInOwner(app);
    const response = await getPolicy(org.token);
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({
      type: 'PasswordPolicy',
      id: org.organizationId,
      attributes: { ...DEFAULT_PASSWORD_POLICY, lockVersion: 0 },
    });
  });

  it('refuses the policy to a user who is not an administrator with 403 FUNCTION_NOT_PERMITTED', async () => {
    const org = await signedInOwner(app);
    const token = await memberToken(app, org.organizationId);
    expect((await getPolicy(token)).body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    const refused = await updatePolicy(token, { minLength: 20, lockVersion: 0 });
    expect(refused.status).toBe(403);
    expect((await getPolicy(org.token)).body.data.attributes.minLength).toBe(8);
  });

  it('updates the policy, logs the change and answers the new policy', async () => {
    const org = await signedInOwner(app);
    const response = await updatePolicy(org.token, {
      minLength: 12,
      requireUppercase: true,
      expiryDays: 90,
      reuseCount: 10,
      lockVersion: 0,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((await getPolicy(org.token)).body.data.attributes).toEqual({
      ...DEFAULT_PASSWORD_POLICY,
      minLength: 12,
      requireUppercase: true,
      expiryDays: 90,
      reuseCount: 10,
      lockVersion: 1,
    });
    const log = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: org.organizationId, action: 'organization.password_policy_updated' })
      .first();
    expect(log.details.changes).toEqual({
      minLength: { from: 8, to: 12 },
      requireUppercase: { from: false, to: true },
      expiryDays: { from: null, to: 90 },
      reuseCount: { from: 5, to: 10 },
    });
  });

  it('refuses a policy looser than the baseline with 422 PASSWORD_POLICY_BELOW_BASELINE per field', async () => {
    const org = await signedInOwner(app);
    const response = await updatePolicy(org.token, {
      minLength: 6,
      requireDigit: false,
      forbidUserId: false,
      lockVersion: 0,
    });
    expect(response.status).toBe(422);
    expect(codesOf(response)).toEqual([
      ['PASSWORD_POLICY_BELOW_BASELINE', at('minLength')],
      ['PASSWORD_POLICY_BELOW_BASELINE', at('requireDigit')],
      ['PASSWORD_POLICY_BELOW_BASELINE', at('forbidUserId')],
    ]);
    expect((await getPolicy(org.token)).body.data.attributes.lockVersion).toBe(0);
  });

  it('rejects values outside their ranges (min length above 64, reuse count above 24) with 422', async () => {
    const org = await signedInOwner(app);
    const response = await updatePolicy(org.token, { minLength: 65, reuseCount: 25, lockVersion: 0 });
    expect(response.status).toBe(422);
    expect(
      codesOf(response)
        .map(([, pointer]: string[]) => pointer)
        .sort(),
    ).toEqual([at('minLength'), at('reuseCount')].sort());
  });

  it('rejects a stale lockVersion with 409 UPDATED_BY_ANOTHER_USER and changes nothing', async () => {
    const org = await signedInOwner(app);
    expect((await updatePolicy(org.token, { minLength: 10, lockVersion: 0 })).status).toBe(200);
    const stale = await updatePolicy(org.token, { minLength: 20, lockVersion: 0 });
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    expect((await getPolicy(org.token)).body.data.attributes).toMatchObject({ minLength: 10, lockVersion: 1 });
  });
});

describe('the policy applies to every password change', () => {
  it('applies a raised minimum length to the next change of the own password', async () => {
    const org = await signedInOwner(app);
    expect((await changeMine(org.token, PASSWORD, 'abcdefgh123')).status).toBe(204);
    await updatePolicy(org.token, { minLength: 14, lockVersion: 0 });
    const refused = await changeMine(org.token, 'abcdefgh123', 'abcdefgh12345');
    expect(codesOf(refused)).toEqual([['PASSWORD_TOO_SHORT', at('password')]]);
    expect(refused.body.errors[0].meta.messages.en).toBe('The password must be at least 14 characters.');
    expect((await changeMine(org.token, 'abcdefgh123', 'abcdefgh123456')).status).toBe(204);
  });

  it('requires an uppercase letter at the first password change when the policy says so', async () => {
    const org = await signedInOwner(app);
    await updatePolicy(org.token, { requireUppercase: true, lockVersion: 0 });
    const loginId = await insertUser(app, org.organizationId, { must_change_password: true });
    const change = (password: string) =>
      app.api.call('changePasswordAndSignIn', {
        body: {
          data: {
            type: 'PasswordChange',
            attributes: {
              loginId,
              currentPassword: PASSWORD,
              password,
              passwordConfirmation: password,
              acceptTermId: undefined,
            },
          },
        },
      });
    expect(codesOf(await change('newpassword12'))).toEqual([['PASSWORD_REQUIRES_UPPERCASE', at('password')]]);
    const accepted = await app.api.call('changePasswordAndSignIn', {
      body: {
        data: {
          type: 'PasswordChange',
          attributes: {
            loginId,
            currentPassword: PASSWORD,
            password: 'Newpassword12',
            passwordConfirmation: 'Newpassword12',
            acceptTermId: await currentTermsId(app),
          },
        },
      },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(201);
  });

  it('requires a symbol on the password reset path when the policy says so', async () => {
    const org = await signedInOwner(app);
    await updatePolicy(org.token, { requireSymbol: true, lockVersion: 0 });
    const token = 'reset-token-for-policy-test';
    await app.service.deps.knex('password_reset_tokens').insert({
      user_id: org.ownerId,
      token_hash: hashOpaqueToken(token),
      expires_at: new Date(app.clock.now().getTime() + 10 * 60_000),
      created_at: app.clock.now(),
    });
    const reset = (password: string) =>
      app.api.call('resetPassword', {
        body: { data: { type: 'PasswordReset', attributes: { token, password, passwordConfirmation: password } } },
      });
    expect(codesOf(await reset('newpassword12'))).toEqual([['PASSWORD_REQUIRES_SYMBOL', at('password')]]);
    expect((await reset('new-password12')).status).toBe(204);
  });

  it("applies the organization's reuse count: 0 allows an older password again, the default 5 does not", async () => {
    const org = await signedInOwner(app);
    expect((await changeMine(org.token, PASSWORD, 'second-pass1')).status).toBe(204);
    const refused = await changeMine(org.token, 'second-pass1', PASSWORD);
    expect(codesOf(refused)).toEqual([['PASSWORD_REUSED', at('password')]]);
    await updatePolicy(org.token, { reuseCount: 0, lockVersion: 0 });
    expect((await changeMine(org.token, 'second-pass1', PASSWORD)).status).toBe(204);
  });

  it("expires passwords after the policy's expiry days: sign-in then answers 403 PASSWORD_EXPIRED", async () => {
    const org = await signedInOwner(app);
    await updatePolicy(org.token, { expiryDays: 30, lockVersion: 0 });
    app.clock.advance(29 * DAY);
    expect((await app.api.call('signIn', { body: signInBody(org.loginId, PASSWORD) })).status).toBe(201);
    app.clock.advance(2 * DAY);
    const expired = await app.api.call('signIn', { body: signInBody(org.loginId, PASSWORD) });
    expect(expired.status).toBe(403);
    expect(expired.body.errors[0].code).toBe('PASSWORD_EXPIRED');
  });

  it('issues temporary passwords that satisfy the strictest policy', () => {
    const strict = {
      ...DEFAULT_PASSWORD_POLICY,
      minLength: 20,
      requireUppercase: true,
      requireSymbol: true,
    };
    for (let i = 0; i < 50; i++) {
      const password = temporaryPasswordFor(strict, 'user-abc');
      expect(password).toHaveLength(20);
      expect(passwordRuleViolations(password, 'user-abc', strict)).toEqual([]);
    }
  });
});
