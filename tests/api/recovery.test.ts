import type { ParsedMail } from 'mailparser';
import { RECOVERY_JOB } from '../../core/auth/recovery.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser, signIn, signInBody, signUpOrganization, uniqueLoginId } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';

const MINUTE = 60_000;
const RESET_SUBJECT = '【Keiyaku】パスワード再設定のご案内';
const REMINDER_SUBJECT = '【Keiyaku】ユーザーIDのお知らせ';

function expectError(response: CallResult, status: number, code: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(status);
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors[0]).toMatchObject({ status: String(status), code });
  return response.body.errors[0];
}

/** What a caller can observe of a 202, apart from the trace id. */
function observable(response: CallResult) {
  return {
    status: response.status,
    body: response.body,
    contentType: response.headers.get('content-type'),
    contentLength: response.headers.get('content-length'),
  };
}

const to = (address: string) => (mail: ParsedMail) => recipientOf(mail).includes(address);

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

function requestReset(loginId: string, email: string) {
  return app.api.call('requestPasswordReset', {
    body: { data: { type: 'PasswordResetRequest', attributes: { loginId, email } } },
  });
}

function resetPassword(token: string, password: string, passwordConfirmation = password) {
  return app.api.call('resetPassword', {
    body: { data: { type: 'PasswordReset', attributes: { token, password, passwordConfirmation } } },
  });
}

function verifyToken(token: string) {
  return app.api.call('verifyPasswordResetToken', {
    body: { data: { type: 'PasswordResetVerification', attributes: { token } } },
  });
}

function remindUserId(email: string) {
  return app.api.call('requestUserIdReminder', {
    body: { data: { type: 'UserIdReminder', attributes: { email } } },
  });
}

/** Requests a reset for the account and returns the token of the new link the mail carries. */
async function resetTokenFor(org: { loginId: string; email: string }): Promise<string> {
  const isReset = (m: ParsedMail) => m.subject === RESET_SUBJECT && to(org.email)(m);
  const earlier = new Set((await readOutbox(app)).filter(isReset).map(linkToken));
  expect((await requestReset(org.loginId, org.email)).status).toBe(202);
  return linkToken(await waitForMail(app, (m) => isReset(m) && !earlier.has(linkToken(m))));
}

function linkToken(mail: ParsedMail): string {
  const match = /https?:\/\/\S+\/forget-password\/reset\?token=([^\s&]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  return decodeURIComponent(match![1]!);
}

describe('forgot password', () => {
  it('answers 202 identically for a matching user ID and e-mail and for an unknown or mismatched one', async () => {
    const org = await signUpOrganization(app);
    const unknown = await requestReset(uniqueLoginId('nobody'), 'nobody@example.com');
    const mismatched = await requestReset(org.loginId, 'someone-else@example.com');
    const known = await requestReset(org.loginId, org.email.toUpperCase());
    expect(known.status).toBe(202);
    expect(observable(unknown)).toEqual(observable(known));
    expect(observable(mismatched)).toEqual(observable(known));

    // The lookup runs in a job; once the queue has drained, only the matching request made a link and a mail.
    const mail = await waitForMail(app, (m) => m.subject === RESET_SUBJECT && to(org.email)(m));
    expect(mail.text).toContain('30分以内');
    await expect.poll(() => app.service.deps.jobs.counts(RECOVERY_JOB), { timeout: 10_000 }).toEqual({ completed: 3 });
    const links = await app.service.deps.knex('password_reset_tokens').where({ user_id: org.ownerId });
    expect(links).toHaveLength(1);
    expect(
      (await readOutbox(app)).filter((m) => to('nobody@example.com')(m) || to('someone-else@example.com')(m)),
    ).toEqual([]);
  });

  it('mails a one-time link with a token that resetPassword accepts (204); every session ends and the new password signs in', async () => {
    const org = await signUpOrganization(app);
    const session = await signIn(app, org.loginId, org.password);
    expect((await requestReset(org.loginId, org.email)).status).toBe(202);
    const mail = await waitForMail(app, (m) => m.subject === RESET_SUBJECT && to(org.email)(m));
    const token = linkToken(mail);
    // Only the token's hash is stored.
    const stored = await app.service.deps.knex('password_reset_tokens').where({ user_id: org.ownerId }).first();
    expect(stored.token_hash).not.toBe(token);

    const response = await resetPassword(token, 'after-reset-5');
    expect(response.status).toBe(204);
    expect(response.body).toBeUndefined();

    expectError(await app.api.call('getCurrentUser', { token: session.authorizationToken }), 401, 'SESSION_REVOKED');
    expectError(
      await app.api.call('refreshAuth', { body: { data: { type: 'Auth', attributes: session } } }),
      401,
      'SESSION_REVOKED',
    );
    expectError(
      await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }),
      401,
      'INVALID_CREDENTIALS',
    );
    await signIn(app, org.loginId, 'after-reset-5');

    const actions = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: org.organizationId })
      .whereIn('action', ['auth.password_reset_requested', 'auth.password_reset'])
      .pluck('action');
    expect(actions.sort()).toEqual(['auth.password_reset', 'auth.password_reset_requested']);
    // The user is told the password changed.
    await waitForMail(app, (m) => m.subject === '【Keiyaku】パスワードが変更されました' && to(org.email)(m));
  });

  it('answers the same link a second time with 401 PASSWORD_RESET_LINK_INVALID', async () => {
    const org = await signUpOrganization(app);
    const token = await resetTokenFor(org);
    expect((await resetPassword(token, 'after-reset-5')).status).toBe(204);
    expectError(await resetPassword(token, 'after-reset-6'), 401, 'PASSWORD_RESET_LINK_INVALID');
    await signIn(app, org.loginId, 'after-reset-5');
  });

  it('answers a link older than 30 minutes with 401 PASSWORD_RESET_LINK_INVALID', async () => {
    const org = await signUpOrganization(app);
    const token = await resetTokenFor(org);
    app.clock.advance(31 * MINUTE);
    expectError(await resetPassword(token, 'after-reset-5'), 401, 'PASSWORD_RESET_LINK_INVALID');
    await signIn(app, org.loginId, org.password);
  });

  it('answers a made-up token with 401 PASSWORD_RESET_LINK_INVALID', async () => {
    expectError(await resetPassword('not-a-token-we-mailed', 'after-reset-5'), 401, 'PASSWORD_RESET_LINK_INVALID');
  });

  it('tells whether a link is usable before its form is filled, without spending it', async () => {
    const org = await signUpOrganization(app);
    const token = await resetTokenFor(org);
    expect((await verifyToken(token)).status).toBe(204);
    expect((await verifyToken(token)).status).toBe(204);
    expect((await verifyToken('made-up-token')).body.errors[0].code).toBe('PASSWORD_RESET_LINK_INVALID');
    expect((await resetPassword(token, 'verified-pass1')).status).toBe(204);
    const used = await verifyToken(token);
    expect(used.status).toBe(401);
    expect(used.body.errors[0].code).toBe('PASSWORD_RESET_LINK_INVALID');

    const expiring = await resetTokenFor(org);
    app.clock.advance(31 * MINUTE);
    expect((await verifyToken(expiring)).status).toBe(401);
  });

  it('makes an earlier link useless when a new one is requested', async () => {
    const org = await signUpOrganization(app);
    const first = await resetTokenFor(org);
    const second = await resetTokenFor(org);
    expect(second).not.toBe(first);
    expectError(await resetPassword(first, 'after-reset-5'), 401, 'PASSWORD_RESET_LINK_INVALID');
    expect((await resetPassword(second, 'after-reset-5')).status).toBe(204);
  });

  it('applies the password rules to the new password and keeps the link usable after a refusal', async () => {
    const org = await signUpOrganization(app);
    const token = await resetTokenFor(org);
    const weak = await resetPassword(token, 'short1');
    expect(weak.status).toBe(422);
    expect(weak.body.errors[0]).toMatchObject({
      code: 'PASSWORD_TOO_SHORT',
      source: { pointer: '/data/attributes/password' },
    });
    const same = await resetPassword(token, org.password);
    expect(same.body.errors[0]).toMatchObject({
      code: 'PASSWORD_SAME_AS_CURRENT',
      source: { pointer: '/data/attributes/password' },
    });
    const mismatch = await resetPassword(token, 'after-reset-5', 'after-reset-6');
    expect(mismatch.body.errors[0]).toMatchObject({
      code: 'PASSWORD_CONFIRMATION_MISMATCH',
      source: { pointer: '/data/attributes/passwordConfirmation' },
    });
    expect((await resetPassword(token, 'after-reset-5')).status).toBe(204);
  });

  it('lifts a lockout: after a reset the new password signs in at once', async () => {
    const org = await signUpOrganization(app);
    for (let i = 0; i < 5; i++) await app.api.call('signIn', { body: signInBody(org.loginId, 'wrong-password1') });
    expectError(await app.api.call('signIn', { body: signInBody(org.loginId, org.password) }), 429, 'ACCOUNT_LOCKED');
    const token = await resetTokenFor(org);
    expect((await resetPassword(token, 'after-reset-5')).status).toBe(204);
    const response = await app.api.call('signIn', { body: signInBody(org.loginId, 'after-reset-5') });
    expect(response.status).toBe(201);
  });
});

describe('user ID reminder', () => {
  it('answers 202 identically for a registered and an unknown e-mail address', async () => {
    const org = await signUpOrganization(app);
    const known = await remindUserId(org.email);
    const unknown = await remindUserId(`unknown-${uniqueLoginId()}@example.com`);
    expect(known.status).toBe(202);
    expect(observable(unknown)).toEqual(observable(known));
  });

  it('mails the login ID to a registered address, and nothing to an unknown one', async () => {
    const org = await signUpOrganization(app);
    const stranger = `stranger-${uniqueLoginId()}@example.com`;
    expect((await remindUserId(stranger)).status).toBe(202);
    expect((await remindUserId(org.email)).status).toBe(202);
    const mail = await waitForMail(app, (m) => m.subject === REMINDER_SUBJECT && to(org.email)(m));
    expect(mail.text).toContain(org.loginId);
    expect(mail.text).not.toContain(org.password);
    expect((await readOutbox(app)).filter(to(stranger))).toEqual([]);
    const logged = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: org.organizationId, action: 'auth.user_id_reminded' });
    expect(logged).toHaveLength(1);
  });

  it('lists every login ID registered with the address in one mail', async () => {
    const email = `shared-${uniqueLoginId()}@example.com`;
    const one = await signUpOrganization(app, { email });
    const two = await signUpOrganization(app, { email });
    expect((await remindUserId(email.toUpperCase())).status).toBe(202);
    const mail = await waitForMail(app, (m) => m.subject === REMINDER_SUBJECT && to(email)(m));
    expect(mail.text).toContain(one.loginId);
    expect(mail.text).toContain(two.loginId);
    expect((await readOutbox(app)).filter((m) => m.subject === REMINDER_SUBJECT && to(email)(m))).toHaveLength(1);
  });
});

// Last in the file: the first test counts every recovery job the file has run.
describe('service users (API keys)', () => {
  it("does nothing for an API key's service user: no link, no mail, no user ID reminder", async () => {
    const org = await signUpOrganization(app);
    const loginId = await insertUser(app, org.organizationId, { kind: 'service' });
    const user = await app.service.deps.knex('users').where({ login_id: loginId }).first('id', 'email');
    const before = (await app.service.deps.jobs.counts(RECOVERY_JOB)).completed ?? 0;
    expect((await requestReset(loginId, user.email)).status).toBe(202);
    expect((await remindUserId(user.email)).status).toBe(202);
    await expect
      .poll(async () => (await app.service.deps.jobs.counts(RECOVERY_JOB)).completed, { timeout: 10_000 })
      .toBe(before + 2);
    expect(await app.service.deps.knex('password_reset_tokens').where({ user_id: user.id })).toEqual([]);
    expect((await readOutbox(app)).filter(to(user.email))).toEqual([]);
  });
});
