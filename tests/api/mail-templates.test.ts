import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_KINDS } from '../../core/mail/messages.ts';
import { memberToken, signedInOwner } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import type { CallResult } from '../helpers/client.ts';
import { recipientOf, waitForMail } from '../helpers/mail.ts';

const RESET_SUBJECT = '【Keiyaku】パスワード再設定のご案内';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const resetKey = { kind: 'password-reset', locale: 'ja' };

function update(token: string, attributes: Record<string, unknown>, params = resetKey) {
  return app.api.call('updateMailTemplate', {
    token,
    params,
    body: {
      data: {
        type: 'MailTemplate',
        attributes: { name: '再設定', summary: '', lockVersion: 0, ...attributes },
      },
    },
  });
}

function customReset(token: string, marker: string, lockVersion = 0) {
  return update(token, {
    subject: `${marker} {{userName}} 様 パスワード再設定`,
    body: `{{organizationName}} の {{userName}} 様\n{{minutes}}分以内: {{link}}`,
    lockVersion,
  });
}

function requestReset(org: { loginId: string; email: string }) {
  return app.api.call('requestPasswordReset', {
    body: { data: { type: 'PasswordResetRequest', attributes: { loginId: org.loginId, email: org.email } } },
  });
}

const to = (address: string) => (mail: ParsedMail) => recipientOf(mail).includes(address);

function expectFieldError(response: CallResult, code: string, pointer: string) {
  expect(response.status, JSON.stringify(response.body)).toBe(422);
  expect(response.body.errors).toContainEqual(expect.objectContaining({ code, source: { pointer } }));
}

const logsOf = (organizationId: string, action: string) =>
  app.service.deps.knex('operation_logs').where({ organization_id: organizationId, action }).orderBy('id');

describe('mail templates', () => {
  it('lists every mail kind in both languages as built-in, with its placeholders, searchable, sortable and paged', async () => {
    const org = await signedInOwner(app);
    const all = await app.api.call('listMailTemplates', { token: org.token, query: { 'page[size]': 100 } });
    expect(all.status).toBe(200);
    expect(all.body.meta.total).toBe(MAIL_KINDS.length * 2);
    expect(all.body.data.map((t: { id: string }) => t.id).slice(0, 4)).toEqual([
      'welcome.ja',
      'welcome.en',
      'password-reset.ja',
      'password-reset.en',
    ]);
    expect(all.body.data.every((t: { attributes: { customised: boolean } }) => !t.attributes.customised)).toBe(true);
    const reset = all.body.data.find((t: { id: string }) => t.id === 'password-reset.en').attributes;
    expect(reset).toMatchObject({ subject: '[Keiyaku] Reset your password', lockVersion: 0, updatedAt: null });
    expect(reset.placeholders).toContainEqual({ name: 'link', required: true });
    expect(reset.placeholders).toContainEqual({ name: 'userName', required: false });

    const found = await app.api.call('listMailTemplates', {
      token: org.token,
      query: { 'filter[q]': 'RESET YOUR', 'filter[locale]': 'en' },
    });
    expect(found.body.data.map((t: { id: string }) => t.id)).toEqual(['password-reset.en']);
    const page = await app.api.call('listMailTemplates', {
      token: org.token,
      // Kinds in reverse order, two languages each: the page of the fourth kind from the start (password-changed).
      query: { sort: '-kind', 'page[size]': 2, 'page[number]': MAIL_KINDS.length - 3 },
    });
    expect(page.body.meta).toEqual({ total: MAIL_KINDS.length * 2, page: { number: MAIL_KINDS.length - 3, size: 2 } });
    expect(page.body.data.map((t: { id: string }) => t.id)).toEqual(['password-changed.ja', 'password-changed.en']);
  });

  it('uses a customised template for the next mail of that kind of that organization only (another organization still gets the default)', async () => {
    const a = await signedInOwner(app);
    const b = await signedInOwner(app);
    const saved = await customReset(a.token, `custom-${a.organizationId}`);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.attributes).toMatchObject({ customised: true, lockVersion: 1 });
    expect(saved.body.data.attributes.updatedAt).not.toBeNull();
    const [log] = await logsOf(a.organizationId, 'mail_template.updated');
    expect(log).toMatchObject({ actor_user_id: a.ownerId, target_type: 'mail_template' });
    expect(log.details).toMatchObject({ kind: 'password-reset', locale: 'ja', created: true });

    expect((await requestReset(a)).status).toBe(202);
    expect((await requestReset(b)).status).toBe(202);
    const mailA = await waitForMail(
      app,
      (m) => to(a.email)(m) && m.subject !== '【Keiyaku】ご登録ありがとうございます',
    );
    expect(mailA.subject).toBe(`custom-${a.organizationId} 山田 太郎 様 パスワード再設定`);
    expect(mailA.text).toMatch(
      /^株式会社テスト の 山田 太郎 様\n30分以内: http\S+\/forget-password\/reset\?token=\S+\n\n--\n/,
    );
    const mailB = await waitForMail(app, (m) => to(b.email)(m) && m.subject === RESET_SUBJECT);
    expect(mailB.text).toContain('パスワード再設定のお申し込みを受け付けました。');
    // The English template of organization A is still the built-in one.
    const en = await app.api.call('getMailTemplate', {
      token: a.token,
      params: { kind: 'password-reset', locale: 'en' },
    });
    expect(en.body.data.attributes.customised).toBe(false);
  });

  it('rejects an unknown placeholder with 422 MAIL_TEMPLATE_PLACEHOLDER_UNKNOWN at its field and saves nothing', async () => {
    const org = await signedInOwner(app);
    const response = await update(org.token, { subject: '{{ password }} のお知らせ', body: '{{link}} {{foo}}' });
    expectFieldError(response, 'MAIL_TEMPLATE_PLACEHOLDER_UNKNOWN', '/data/attributes/subject');
    expectFieldError(response, 'MAIL_TEMPLATE_PLACEHOLDER_UNKNOWN', '/data/attributes/body');
    expect(response.body.errors[0].meta.messages.en).toBe(
      'The placeholder "{{password}}" cannot be used in this mail.',
    );
    expect(await app.service.deps.knex('mail_templates').where({ organization_id: org.organizationId })).toEqual([]);
    expect(await logsOf(org.organizationId, 'mail_template.updated')).toEqual([]);
  });

  it('rejects a body without a required placeholder with 422 MAIL_TEMPLATE_PLACEHOLDER_REQUIRED and saves nothing', async () => {
    const org = await signedInOwner(app);
    // {{link}} in the subject does not count: the reset link must be in the body.
    const response = await update(org.token, { subject: '{{link}}', body: '{{userName}} 様、再設定してください。' });
    expect(response.body.errors).toHaveLength(1);
    expectFieldError(response, 'MAIL_TEMPLATE_PLACEHOLDER_REQUIRED', '/data/attributes/body');
    expect(response.body.errors[0].meta.messages.ja).toBe('本文に差し込み項目「{{link}}」を含めてください。');
    expect(await app.service.deps.knex('mail_templates').where({ organization_id: org.organizationId })).toEqual([]);
  });

  it('rejects a subject of more than one line or 200 characters and a body over 10,000 characters with 422', async () => {
    const org = await signedInOwner(app);
    const twoLines = await update(org.token, { subject: 'a\nb', body: '{{link}}' });
    expectFieldError(twoLines, 'VALIDATION_FAILED', '/data/attributes/subject');
    const long = await update(org.token, { subject: 'x'.repeat(201), body: `{{link}}${'y'.repeat(10_000)}` });
    expectFieldError(long, 'VALIDATION_FAILED', '/data/attributes/subject');
    expectFieldError(long, 'VALIDATION_FAILED', '/data/attributes/body');
    const atLimit = await update(org.token, { subject: 'x'.repeat(200), body: `{{link}}${'y'.repeat(9_992)}` });
    expect(atLimit.status).toBe(200);
  });

  it('resets to the default: the customisation is deleted, logged, and the next mail uses the built-in text', async () => {
    const org = await signedInOwner(app);
    expect((await customReset(org.token, 'before-reset')).status).toBe(200);
    const reset = await app.api.call('resetMailTemplate', {
      token: org.token,
      params: resetKey,
      query: { lockVersion: 1 },
    });
    expect(reset.status).toBe(200);
    expect(reset.body.data.attributes).toMatchObject({ customised: false, subject: RESET_SUBJECT, lockVersion: 0 });
    const got = await app.api.call('getMailTemplate', { token: org.token, params: resetKey });
    expect(got.body.data.attributes).toMatchObject({ customised: false, subject: RESET_SUBJECT });
    expect(await app.service.deps.knex('mail_templates').where({ organization_id: org.organizationId })).toEqual([]);
    const [log] = await logsOf(org.organizationId, 'mail_template.reset');
    expect(log.details).toMatchObject({
      kind: 'password-reset',
      locale: 'ja',
      subject: 'before-reset {{userName}} 様 パスワード再設定',
    });

    expect((await requestReset(org)).status).toBe(202);
    await waitForMail(app, (m) => to(org.email)(m) && m.subject === RESET_SUBJECT);
    // Resetting what is not customised changes nothing and logs nothing.
    expect((await app.api.call('resetMailTemplate', { token: org.token, params: resetKey })).status).toBe(200);
    expect(await logsOf(org.organizationId, 'mail_template.reset')).toHaveLength(1);
  });

  it('rejects a stale lockVersion with 409 UPDATED_BY_ANOTHER_USER on update and reset, changing nothing', async () => {
    const org = await signedInOwner(app);
    expect((await customReset(org.token, 'first')).status).toBe(200);
    // A second editor who read the built-in template (lockVersion 0) saves after the first.
    const stale = await customReset(org.token, 'second', 0);
    expect(stale.status).toBe(409);
    expect(stale.body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    expect((await customReset(org.token, 'third', 1)).body.data.attributes.lockVersion).toBe(2);
    const staleReset = await app.api.call('resetMailTemplate', {
      token: org.token,
      params: resetKey,
      query: { lockVersion: 1 },
    });
    expect(staleReset.status).toBe(409);
    const got = await app.api.call('getMailTemplate', { token: org.token, params: resetKey });
    expect(got.body.data.attributes).toMatchObject({ customised: true, lockVersion: 2 });
    expect(got.body.data.attributes.subject).toMatch(/^third /);
    expect(await logsOf(org.organizationId, 'mail_template.updated')).toHaveLength(2);
  });

  it('previews a draft with sample values and the signature, checking placeholders and saving nothing', async () => {
    const org = await signedInOwner(app);
    const preview = (subject: string, body: string) =>
      app.api.call('previewMailTemplate', {
        token: org.token,
        params: { kind: 'welcome', locale: 'en' },
        body: { data: { type: 'MailTemplatePreview', attributes: { subject, body } } },
      });
    const ok = await preview('Hello {{userName}}', 'Welcome to {{organizationName}}, {{loginId}}: {{link}}');
    expect(ok.status).toBe(200);
    expect(ok.body.data.attributes.subject).toBe('Hello Taro Yamada');
    expect(ok.body.data.attributes.text).toMatch(
      /^Welcome to 株式会社テスト, yamada-taro: http\S+\/login\n\n--\nKeiyaku electronic contracts\n/,
    );
    expect(Object.keys(ok.body.data.attributes.sampleValues).sort()).toEqual([
      'link',
      'loginId',
      'organizationName',
      'userName',
    ]);
    expectFieldError(
      await preview('Hi', '{{loginId}} {{link}} {{minutes}}'),
      'MAIL_TEMPLATE_PLACEHOLDER_UNKNOWN',
      '/data/attributes/body',
    );
    expect(await app.service.deps.knex('mail_templates').where({ organization_id: org.organizationId })).toEqual([]);
  });

  it('refuses every mail template operation to a user who is not an administrator with 403 FUNCTION_NOT_PERMITTED', async () => {
    const org = await signedInOwner(app);
    const token = await memberToken(app, org.organizationId);
    const draft = { data: { type: 'MailTemplatePreview', attributes: { subject: 's', body: '{{link}}' } } };
    const calls: CallResult[] = [
      await app.api.call('listMailTemplates', { token }),
      await app.api.call('getMailTemplate', { token, params: resetKey }),
      await update(token, { subject: 's', body: '{{link}}' }),
      await app.api.call('resetMailTemplate', { token, params: resetKey }),
      await app.api.call('previewMailTemplate', { token, params: resetKey, body: draft }),
    ];
    for (const response of calls) {
      expect(response.status).toBe(403);
      expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    }
    expect(await app.service.deps.knex('mail_templates').where({ organization_id: org.organizationId })).toEqual([]);
  });

  it("never shows or changes another organization's templates", async () => {
    const a = await signedInOwner(app);
    const b = await signedInOwner(app);
    expect((await customReset(a.token, 'only-a')).status).toBe(200);
    const listB = await app.api.call('listMailTemplates', { token: b.token, query: { 'filter[customised]': 'true' } });
    expect(listB.body).toMatchObject({ data: [], meta: { total: 0 } });
    const getB = await app.api.call('getMailTemplate', { token: b.token, params: resetKey });
    expect(getB.body.data.attributes).toMatchObject({ customised: false, subject: RESET_SUBJECT });
    // B's save creates B's own row, and B's reset deletes only it.
    expect((await customReset(b.token, 'only-b')).status).toBe(200);
    expect((await app.api.call('resetMailTemplate', { token: b.token, params: resetKey })).status).toBe(200);
    const getA = await app.api.call('getMailTemplate', { token: a.token, params: resetKey });
    expect(getA.body.data.attributes).toMatchObject({ customised: true, lockVersion: 1 });
    expect(getA.body.data.attributes.subject).toMatch(/^only-a /);
    expect(await logsOf(a.organizationId, 'mail_template.reset')).toEqual([]);
  });
});
