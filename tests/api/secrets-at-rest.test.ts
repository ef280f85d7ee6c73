/*
 * Secrets at rest: a mail or SMS job carries its message's id only, so no temporary password, reset or
 * confirmation link or signing code reaches pg-boss's job table; the secret parameters wait sealed under the master
 * key and are wiped once the message is sent, while the message itself still carries them. The outbox folder is
 * the owner's only and each mail in it 0600, whatever the umask.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutgoingMessages } from '../../core/mail/outgoing.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { signUpOrganization } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { outboxDir, recipientOf, waitForMail } from '../helpers/mail.ts';
import { createUser, signInBody, temporaryPasswordOf } from '../helpers/org-admin.ts';
import { confirmEmailOf, signTaskCall, waitForSmsCode } from '../helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld, type TaskWorld } from '../helpers/tasks.ts';

const plugins = () => BUILT_IN_PLUGINS.filter((p) => !/scan/.test(p.name));

interface MessageRow {
  id: string;
  channel: 'mail' | 'sms';
  kind: string;
  params: Record<string, string>;
  secret_params: Buffer | null;
  sent_at: Date | null;
}

/**
 * Jobs of any queue whose data holds `secret` anywhere (pg-boss keeps finished jobs in the same table). The secret
 * must stand apart from other hex digits, so a 6-digit code does not match inside some uuid.
 */
async function jobsHolding(app: TestApp, secret: string): Promise<string[]> {
  const escaped = secret.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');
  const { rows } = await app.service.deps.knex.raw(
    `SELECT name FROM pgboss.job WHERE data::text ~ ('(^|[^0-9a-fA-F])' || ? || '([^0-9a-fA-F]|$)')`,
    [escaped],
  );
  return rows.map((row: { name: string }) => row.name);
}

/** The job of a message: pg-boss's row under the message's id. */
async function jobOf(app: TestApp, id: string): Promise<{ name: string; data: unknown }> {
  return app.service.deps.knex('pgboss.job').where({ id }).first('name', 'data');
}

/** Polls until the message is recorded as sent (the delivery job stamps it right after delivering). */
async function sentMessage(app: TestApp, id: string): Promise<MessageRow> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const row = (await app.service.deps.knex('outgoing_messages').where({ id }).first()) as MessageRow | undefined;
    if (row?.sent_at) return row;
    if (Date.now() > deadline) throw new Error(`message ${id} was not marked sent`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The message id a mail of the outbox was sent as (its Message-ID is <id@keiyaku.mail>). */
const idOfMail = (messageId: string | undefined) => /^<([0-9a-f-]{36})@keiyaku\.mail>$/.exec(messageId ?? '')![1]!;

/** Proves the secret never reached a job and is gone from the stored message once it was sent. */
async function expectSecretOnlyInTheMessage(app: TestApp, id: string, secret: string, queue: string) {
  expect(await jobOf(app, id)).toEqual({ name: queue, data: { messageId: id } });
  expect(await jobsHolding(app, secret)).toEqual([]);
  const row = await sentMessage(app, id);
  expect(row.secret_params).toBeNull();
  expect(JSON.stringify(row.params)).not.toContain(secret);
}

describe('mail and SMS jobs carry ids, not secrets', () => {
  let app: TestApp;
  let w: TaskWorld;
  const umask = process.umask();

  beforeAll(async () => {
    // A permissive umask: the outbox's modes must come from the code, not from the environment.
    process.umask(0o000);
    app = await startApp({ plugins: plugins() });
    w = await seedTaskWorld(app);
  });
  afterAll(async () => {
    process.umask(umask);
    await app?.close();
  });

  it('mails the password-reset link, which works, while no job holds its token and the message drops it once sent', async () => {
    // Organization B's owner: a reset ends the user's sessions, and organization A's owner works on below.
    const { email, loginId } = w.ownerB;
    const requested = await app.api.call('requestPasswordReset', {
      body: { data: { type: 'PasswordResetRequest', attributes: { loginId, email } } },
    });
    expect(requested.status).toBe(202);
    const mail = await waitForMail(app, (m) => recipientOf(m).includes(email) && /token=/.test(m.text ?? ''));
    const token = decodeURIComponent(/[?&]token=([^\s&]+)/.exec(mail.text ?? '')![1]!);
    await expectSecretOnlyInTheMessage(app, idOfMail(mail.messageId), token, 'mail.send');

    const reset = await app.api.call('resetPassword', {
      body: {
        data: {
          type: 'PasswordReset',
          attributes: { token, password: 'after-reset-pass9', passwordConfirmation: 'after-reset-pass9' },
        },
      },
    });
    expect(reset.status).toBe(204);
  });

  it('mails a new user’s temporary password, which signs in, while no job and no delivery record holds it', async () => {
    // The organization's own template even puts it in the subject; the template applies when the mail is sent.
    const template = await app.api.call('updateMailTemplate', {
      token: w.ownerA.token,
      params: { kind: 'user-invitation', locale: 'ja' },
      body: {
        data: {
          type: 'MailTemplate',
          attributes: {
            name: '招待',
            summary: '',
            subject: '招待 {{loginId}} / {{temporaryPassword}}',
            body: 'ユーザーID: {{loginId}}\n仮パスワード: {{temporaryPassword}}\n{{link}}',
            lockVersion: 0,
          },
        },
      },
    });
    expect(template.status).toBe(200);
    const user = await createUser(app, w.ownerA.token, [w.g1]);
    const temporary = await temporaryPasswordOf(app, user.attributes.email);
    const mail = await waitForMail(app, (m) => (m.text ?? '').includes(temporary));
    expect(mail.subject).toBe(`招待 ${user.attributes.loginId} / ${temporary}`);
    const id = idOfMail(mail.messageId);
    await expectSecretOnlyInTheMessage(app, id, temporary, 'mail.send');
    const delivery = await app.service.deps.knex('mail_deliveries').where({ id }).first('subject');
    expect(delivery.subject).toBe(`招待 ${user.attributes.loginId} / ***`);

    const signIn = await app.api.call('signIn', { body: signInBody(user.attributes.loginId, temporary) });
    expect([signIn.status, signIn.body.errors[0].code]).toEqual([403, 'INITIAL_PASSWORD_CHANGE_REQUIRED']);
  });

  it('mails the arrival-confirmation link, which confirms, while no job holds its token', async () => {
    expect((await app.api.call('requestEmailConfirmation', { token: w.userA2.token })).status).toBe(202);
    const mail = await waitForMail(
      app,
      (m) => recipientOf(m).includes(w.userA2.email) && (m.text ?? '').includes('/arrival-confirmation?token='),
    );
    const token = /token=([\w-]+)/.exec(mail.text ?? '')![1]!;
    await expectSecretOnlyInTheMessage(app, idOfMail(mail.messageId), token, 'mail.send');

    const confirmed = await app.api.call('confirmEmail', {
      body: { data: { type: 'EmailConfirmation', attributes: { token } } },
    });
    expect(confirmed.status).toBe(204);
  });

  it('sends a signing code by SMS, which signs, while no job holds it', async () => {
    await confirmEmailOf(app, w.userA1.id);
    const phone = `080${String(Date.now()).slice(-8)}`;
    await app.service.deps.knex('users').where({ id: w.userA1.id }).update({ mobile_phone: phone });
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator', twoFactor: 'sms' }),
    ]);
    const sent = await app.api.call('requestSigningCode', { token: w.userA1.token, params: { taskId: task!.id } });
    expect(sent.status).toBe(202);
    const code = await waitForSmsCode(app, phone);
    const sms = await app.service.deps.knex('sms_outbox').where({ phone_number: phone }).first('id', 'body');
    expect(sms.body).toContain(code);
    await expectSecretOnlyInTheMessage(app, sms.id, code, 'sms.send');

    expect((await signTaskCall(app, w.userA1.token, task!.id, { code })).status).toBe(200);
  });

  it('mails a signing code while no job holds it', async () => {
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g2, { signatureType: 'operator', twoFactor: 'email' }),
    ]);
    await confirmEmailOf(app, w.userA2.id);
    const sent = await app.api.call('requestSigningCode', { token: w.userA2.token, params: { taskId: task!.id } });
    expect(sent.status).toBe(202);
    const mail = await waitForMail(
      app,
      (m) => recipientOf(m).includes(w.userA2.email) && /認証コード|signing code/i.test(m.subject ?? ''),
    );
    const code = /(\d{6})/.exec(mail.text ?? '')![1]!;
    await expectSecretOnlyInTheMessage(app, idOfMail(mail.messageId), code, 'mail.send');
  });

  it('keeps the outbox folder 0700 and each mail in it 0600 under a umask of 000', () => {
    const folder = outboxDir(app);
    const files = readdirSync(folder).filter((name) => name.endsWith('.eml'));
    expect(files.length).toBeGreaterThanOrEqual(4);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const name of files) expect(statSync(path.join(folder, name)).mode & 0o777, name).toBe(0o600);
    expect(statSync(app.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(app.dataDir, 'blobs')).mode & 0o777).toBe(0o700);
  });
});

describe('a message waiting for delivery', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ env: { KEIYAKU_PLUGINS_DISABLED: 'mail' }, plugins: plugins() });
  });
  afterAll(() => app?.close());

  it('keeps its secret parameters sealed under the master key, apart from the others, and its job holds only its id', async () => {
    const org = await signUpOrganization(app);
    const requested = await app.api.call('requestPasswordReset', {
      body: { data: { type: 'PasswordResetRequest', attributes: { loginId: org.loginId, email: org.email } } },
    });
    expect(requested.status).toBe(202);
    const { knex, config, clock } = app.service.deps;
    // Recovery queues the mail from a job of its own, shortly after the request.
    const deadline = Date.now() + 10_000;
    let row: MessageRow | undefined;
    while (!row && Date.now() < deadline) {
      row = await knex('outgoing_messages').where({ to_address: org.email, kind: 'password-reset' }).first();
      if (!row) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!row) throw new Error('the reset mail was not queued');
    expect(row).toMatchObject({ channel: 'mail', sent_at: null });
    expect(Object.keys(row.params).sort()).toEqual(['minutes', 'name']);
    expect(row.secret_params).not.toBeNull();

    // Opened with the service's key, the sealed part is the link; its token appears nowhere else.
    const opened = await new OutgoingMessages(knex, config.masterKey, clock).load(row.id);
    const link = opened!.params.link!;
    const token = decodeURIComponent(/[?&]token=([^\s&]+)/.exec(link)![1]!);
    expect(link).toContain(`${config.publicUrl}/forget-password/reset?token=`);
    expect(row.secret_params!.includes(Buffer.from(token))).toBe(false);
    expect(row.secret_params!.includes(Buffer.from(link))).toBe(false);
    expect(await jobOf(app, row.id)).toEqual({ name: 'mail.send', data: { messageId: row.id } });
    expect(await jobsHolding(app, token)).toEqual([]);

    // Another master key cannot open it.
    const other = new OutgoingMessages(knex, Buffer.alloc(32, 7), clock);
    await expect(other.load(row.id)).rejects.toThrow();
  });
});
