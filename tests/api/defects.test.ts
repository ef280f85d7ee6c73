import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';
import { readOutbox, recipientOf, waitForMail } from '../helpers/mail.ts';
import { currentTermsId, PASSWORD, signIn, signInBody } from '../helpers/accounts.ts';
import { adminSession, createUser, temporaryPasswordOf } from '../helpers/org-admin.ts';
import { corporateNumber, createWorkspace } from '../helpers/workspaces.ts';

// Defects a newcomer found (issue 16, item 7) that the service itself caused, one test each.

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

describe('partners added to a workspace', () => {
  it('are not public unless asked (they see only the flows they have tasks in); own groups still are', async () => {
    const owner = await adminSession(app, { organizationName: '株式会社オーナー' });
    const number = corporateNumber();
    const partner = await adminSession(app, { organizationName: '株式会社取引先', corporateNumber: number });
    const workspace = await createWorkspace(app, owner.token, [
      { kind: 'group', groupId: owner.defaultGroupId },
      { kind: 'organization', corporateNumber: number },
    ]);
    const flags = (workspace.attributes.participants as { attributes: Record<string, unknown> }[]).map((p) => ({
      kind: p.attributes.kind,
      isPublic: p.attributes.isPublic,
    }));
    expect(flags).toHaveLength(2);
    expect(flags).toEqual(
      expect.arrayContaining([
        { kind: 'group', isPublic: true },
        { kind: 'organization', isPublic: false },
      ]),
    );
    // A flow without tasks for the partner stays out of its list.
    const flow = await app.api.call('createBusinessFlow', {
      token: owner.token,
      params: { workspaceId: workspace.id },
      body: { data: { type: 'BusinessFlow', attributes: { name: '社内の稟議' } } },
    });
    expect(flow.status).toBe(201);
    const seen = await app.api.call('listBusinessFlows', { token: partner.token });
    expect(seen.status).toBe(200);
    expect(seen.body.data.map((f: { id: string }) => f.id)).not.toContain(flow.body.data.id);
  });
});

describe('mails', () => {
  it('print times in Japan time in Japanese (not raw UTC ISO strings) and subjects without stray spaces', async () => {
    const admin = await adminSession(app);
    const before = (await readOutbox(app)).length;
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const email = user.attributes.email as string;
    const mail = await waitForMail(app, (m) => recipientOf(m).includes(email));
    expect((await readOutbox(app)).length).toBeGreaterThan(before);
    const text = mail.text ?? '';
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    expect(text).toMatch(/仮パスワードの有効期限は\d{4}年\d{1,2}月\d{1,2}日 \d{2}:\d{2}です。/);
    expect(mail.subject).toBe((mail.subject ?? '').trim());
    expect(mail.subject).not.toMatch(/\s{2}/);
  });
});

describe('the terms of use at sign-in', () => {
  const consentOf = (response: { body: { errors: { code: string; meta?: { params?: Record<string, unknown> } }[] } }) =>
    response.body.errors.map((error) => [error.code, error.meta?.params?.termsConsent]);

  it('tell an invited user at the first sign-in that a first consent is owed, and a user of older terms a revised one', async () => {
    const admin = await adminSession(app);
    const user = await createUser(app, admin.token, [admin.defaultGroupId]);
    const loginId = user.attributes.loginId as string;
    const temporary = await temporaryPasswordOf(app, user.attributes.email as string);

    // The temporary password leads to the password change, which is told up front that the terms are owed.
    const first = await app.api.call('signIn', { body: signInBody(loginId, temporary) });
    expect(first.status).toBe(403);
    expect(consentOf(first)).toEqual([['INITIAL_PASSWORD_CHANGE_REQUIRED', 'first']]);
    const change = (acceptTermId?: string) =>
      app.api.call('changePasswordAndSignIn', {
        body: {
          data: {
            type: 'PasswordChange',
            attributes: {
              loginId,
              currentPassword: temporary,
              password: PASSWORD,
              passwordConfirmation: PASSWORD,
              ...(acceptTermId ? { acceptTermId } : {}),
            },
          },
        },
      });
    const refused = await change();
    expect(refused.status).toBe(422);
    expect(consentOf(refused)).toEqual([['TERMS_NOT_AGREED', 'first']]);
    expect((await change(await currentTermsId(app))).status).toBe(201);
    // Agreed: the next sign-in asks nothing.
    await signIn(app, loginId, PASSWORD);

    // A user who agreed only to an older version is asked to agree to the revision.
    const knex = app.service.deps.knex;
    const [older] = await knex('terms')
      .insert({
        version: `test-older-${process.pid}`,
        title_ja: '旧利用規約',
        title_en: 'Older terms',
        body_ja: '旧版です。',
        body_en: 'Older.',
        effective_at: new Date('2000-01-01T00:00:00Z'),
      })
      .returning('id');
    expect(await currentTermsId(app)).not.toBe(older.id);
    await knex('term_acceptances').where({ user_id: user.id }).delete();
    await knex('term_acceptances').insert({ user_id: user.id, term_id: older.id, accepted_at: new Date('2000-01-02') });
    const revised = await app.api.call('signIn', { body: signInBody(loginId, PASSWORD) });
    expect(revised.status).toBe(422);
    expect(consentOf(revised)).toEqual([['TERMS_NOT_AGREED', 'revised']]);
    // A user who agreed to the terms in force is told nothing about them.
    const owner = await app.api.call('signIn', { body: signInBody(admin.loginId, PASSWORD) });
    expect(owner.status).toBe(201);
  });
});
