import { randomUUID } from 'node:crypto';
import { PLAN_CATALOG } from '../../core/access/plans.ts';
import { createSecrets } from '../../core/crypto/secrets.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_SEND_JOB } from '../../core/mail/mailer.ts';
import { type OutgoingMessageJob, OutgoingMessages } from '../../core/mail/outgoing.ts';
import type { Plugin, PluginContext } from '../../core/plugins/index.ts';
import { PASSWORD, signIn, signUpOrganization } from '../../tests/helpers/accounts.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { SmtpSink } from '../../tests/peers/smtp-sink.ts';
import { type MailConfig, mailPlugin } from './index.ts';

const ONLY_MAIL = [mailPlugin as Plugin<never>];
const WELCOME_SUBJECT = '【Keiyaku】ご登録ありがとうございます';
const RESET_SUBJECT = '【Keiyaku】パスワード再設定のご案内';
const NEW_PASSWORD = 'fresh-password7';

interface QueuedMail {
  id: string;
  state: string;
  retry_count: number;
}

/** Polls `probe` until it returns something truthy; fails the test with `what` after the timeout. */
async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The `mail.send` jobs queued for an address, oldest first, as pg-boss holds them (a job's id is its message's). */
function queuedMails(app: TestApp, to: string): Promise<QueuedMail[]> {
  return app.service.deps
    .knex('pgboss.job as j')
    .join('outgoing_messages as m', 'm.id', 'j.id')
    .where({ 'j.name': MAIL_SEND_JOB, 'm.to_address': to })
    .orderBy('j.created_on')
    .select('j.id', 'j.state', 'j.retry_count');
}

/** Stores a mail message without queuing its job, as Mailer.send does before it queues one. */
async function storedMail(app: TestApp, to: string): Promise<string> {
  const { deps } = app.service;
  const messages = new OutgoingMessages(deps.knex, deps.config.masterKey, deps.clock);
  return deps.knex.transaction((trx) =>
    messages.insert(trx, {
      channel: 'mail',
      kind: 'password-changed',
      to,
      locale: 'ja',
      params: { userName: '二度 太郎', changedAt: '2026-11-25T00:00:00.000Z' },
      secretNames: [],
      organizationId: null,
      userId: null,
    }),
  );
}

/** A row of the plugin's mail_deliveries table. */
interface DeliveryRow {
  id: string;
  organization_id: string | null;
  user_id: string | null;
  kind: string;
  to_address: string;
  subject: string;
  transport: 'smtp' | 'outbox';
  message_id: string;
  delivered_at: Date;
}

function deliveriesTo(app: TestApp, to: string): Promise<DeliveryRow[]> {
  return app.service.deps.knex('mail_deliveries').where({ to_address: to }).orderBy('delivered_at');
}

async function requestReset(app: TestApp, loginId: string, email: string): Promise<void> {
  const response = await app.api.call('requestPasswordReset', {
    body: { data: { type: 'PasswordResetRequest', attributes: { loginId, email } } },
  });
  expect(response.status).toBe(202);
}

function resetTokenIn(text: string): string {
  const match = /[?&]token=([^\s&]+)/.exec(text);
  if (!match) throw new Error(`no reset link in:\n${text}`);
  return decodeURIComponent(match[1]!);
}

async function resetPassword(app: TestApp, token: string) {
  return app.api.call('resetPassword', {
    body: {
      data: {
        type: 'PasswordReset',
        attributes: { token, password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD },
      },
    },
  });
}

describe('mail plugin over SMTP', () => {
  let sink: SmtpSink;
  let app: TestApp;

  beforeAll(async () => {
    sink = await SmtpSink.start();
    app = await startApp({ env: { SMTP_URL: sink.url }, plugins: ONLY_MAIL });
  });
  afterAll(async () => {
    await app?.close();
    await sink?.stop();
  });

  it('delivers the welcome mail of a sign-up over SMTP with Message-ID <id@keiyaku.mail> and a UTF-8 Japanese subject', async () => {
    const org = await signUpOrganization(app);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(org.email));
    const [delivery] = await until('the welcome delivery row', async () => {
      const rows = await deliveriesTo(app, org.email);
      return rows.length > 0 && rows;
    });

    expect(delivery).toMatchObject({
      kind: 'welcome',
      transport: 'smtp',
      organization_id: org.organizationId,
      user_id: org.ownerId,
    });
    expect(mail.messageId).toBe(`<${delivery!.id}@keiyaku.mail>`);
    expect(delivery!.message_id).toBe(mail.messageId);
    expect(mail.subject).toBe(WELCOME_SUBJECT);
    // The subject travels as an RFC 2047 UTF-8 encoded word, not as raw 8-bit bytes.
    expect(mail.raw.toString('latin1')).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/im);
    expect(mail.text).toContain('山田 太郎 様');
    expect(mail.text).toContain(org.loginId);
    expect(mail.envelope.from).toBe('no-reply@keiyaku.localhost');
    expect(await queuedMails(app, org.email)).toEqual([{ id: delivery!.id, state: 'completed', retry_count: 0 }]);
  });

  it('delivers a password-reset mail over SMTP whose link resets the password', async () => {
    const org = await signUpOrganization(app);
    await requestReset(app, org.loginId, org.email);
    const mail = await sink.waitFor((m) => m.envelope.to.includes(org.email) && m.subject === RESET_SUBJECT);
    const [queued] = (await queuedMails(app, org.email)).slice(-1);
    expect(mail.messageId).toBe(`<${queued!.id}@keiyaku.mail>`);
    expect(mail.raw.toString('latin1')).toMatch(/^Subject: =\?UTF-8\?[BQ]\?/im);
    expect(mail.text).toContain('30分以内');

    expect((await resetPassword(app, resetTokenIn(mail.text))).status).toBe(204);
    await expect(signIn(app, org.loginId, NEW_PASSWORD)).resolves.toHaveProperty('authorizationToken');
  });

  it('keeps a mail queued and retried while SMTP is down, and delivers it once when SMTP is back', async () => {
    const org = await signUpOrganization(app);
    await sink.waitFor((m) => m.envelope.to.includes(org.email)); // the welcome mail, before SMTP goes down
    await sink.stop();
    try {
      await requestReset(app, org.loginId, org.email);
      await until('the reset mail to fail and wait for a retry', async () => {
        const mails = await queuedMails(app, org.email);
        const reset = mails.at(-1);
        return mails.length === 2 && reset?.state === 'retry' && reset;
      });
      expect((await app.service.deps.jobs.counts(MAIL_SEND_JOB)).retry).toBeGreaterThanOrEqual(1);
      expect(await deliveriesTo(app, org.email)).toHaveLength(1); // only the welcome mail
      expect(sink.to(org.email)).toHaveLength(1);
    } finally {
      await sink.start();
    }

    const [, reset] = await queuedMails(app, org.email);
    const messageId = `<${reset!.id}@keiyaku.mail>`;
    const mail = await sink.waitFor((m) => m.messageId === messageId, 25_000);
    expect(mail.subject).toBe(RESET_SUBJECT);
    const done = await until('the retried job to complete', async () => {
      const job = (await queuedMails(app, org.email))[1];
      return job?.state === 'completed' && job;
    });
    // pg-boss counts a retry when it fetches the job again: the one delivery came from a later attempt.
    expect(done.retry_count).toBeGreaterThanOrEqual(1);
    expect(sink.messages.filter((m) => m.messageId === messageId)).toHaveLength(1);
    const deliveries = await deliveriesTo(app, org.email);
    expect(deliveries.map((d) => d.kind)).toEqual(['welcome', 'password-reset']);
    expect(deliveries[1]!.id).toBe(reset!.id);
    // The link still works after the outage.
    expect((await resetPassword(app, resetTokenIn(mail.text))).status).toBe(204);
  }, 60_000);

  it('delivers once when the job handler runs twice for one mail id', async () => {
    const { deps } = app.service;
    const ctx: PluginContext<MailConfig> = {
      name: 'mail',
      config: {
        smtpUrl: sink.url,
        outboxDir: path.join(app.dataDir, 'outbox'),
        from: deps.config.mailFrom,
        retryLimit: 0,
        retryDelaySeconds: 1,
      },
      db: deps.knex,
      clock: deps.clock,
      jobs: deps.jobs,
      mail: deps.mailer,
      log: deps.logger,
      oplog: deps.oplog,
      publicUrl: deps.config.publicUrl,
      runsWorkers: deps.config.runWorkers,
      files: deps.files,
      secrets: createSecrets(deps.config.masterKey, 'plugin:mail'),
      auth: { signInWithIdentity: () => Promise.reject(new Error('not used by the mail plugin')) },
      users: { provision: () => Promise.reject(new Error('not used by the mail plugin')) },
      usage: {
        record: () => Promise.reject(new Error('not used by the mail plugin')),
        current: () => Promise.reject(new Error('not used by the mail plugin')),
        month: () => Promise.reject(new Error('not used by the mail plugin')),
      },
      plans: PLAN_CATALOG,
      sealPdf: () => Promise.reject(new Error('not used by the mail plugin')),
      documents: {
        completedFiles: () => Promise.reject(new Error('not used by the mail plugin')),
        assertReadable: () => Promise.reject(new Error('not used by the mail plugin')),
        writeProperties: () => Promise.reject(new Error('not used by the mail plugin')),
        recordScanVerdict: async () => ({ changed: false }),
        builtinThreat: async () => null,
      },
    };
    const to = `twice-${process.pid}@example.com`;
    const id = await storedMail(app, to);
    const data: OutgoingMessageJob = { messageId: id };
    const job = mailPlugin.jobs![MAIL_SEND_JOB]!;
    await mailPlugin.start!(ctx);
    try {
      await job.handler({ id, data, retryCount: 0 }, ctx);
      await job.handler({ id, data, retryCount: 1 }, ctx);
    } finally {
      await mailPlugin.stop!(ctx);
    }
    expect(sink.messages.filter((m) => m.messageId === `<${id}@keiyaku.mail>`)).toHaveLength(1);
    expect(await deliveriesTo(app, to)).toHaveLength(1);
  });

  it('delivers once when the same mail job id is sent twice', async () => {
    const { jobs } = app.service.deps;
    const to = `sent-twice-${process.pid}@example.com`;
    const id = await storedMail(app, to);
    const data: OutgoingMessageJob = { messageId: id };
    expect(await jobs.send(MAIL_SEND_JOB, data, { id })).toBe(id);
    expect(await jobs.send(MAIL_SEND_JOB, data, { id })).toBeNull();
    await sink.waitFor((m) => m.messageId === `<${id}@keiyaku.mail>`);
    await until('the job to complete', async () => (await queuedMails(app, to))[0]?.state === 'completed');
    expect(await queuedMails(app, to)).toHaveLength(1);
    expect(sink.to(to)).toHaveLength(1);
    expect(await deliveriesTo(app, to)).toHaveLength(1);
    const message = await app.service.deps.knex('outgoing_messages').where({ id }).first('sent_at', 'secret_params');
    expect(message.sent_at).toBeInstanceOf(Date);
  });

  it('still delivers a job queued by an earlier version, which carries the rendered mail itself', async () => {
    const id = randomUUID();
    const to = `legacy-${process.pid}@example.com`;
    const legacy = {
      id,
      kind: 'password-changed',
      to,
      subject: '【Keiyaku】パスワードが変更されました',
      text: '以前の版が積んだメールです。',
      organizationId: null,
      userId: null,
    };
    await app.service.deps.jobs.send(MAIL_SEND_JOB, legacy, { id });
    const mail = await sink.waitFor((m) => m.messageId === `<${id}@keiyaku.mail>`);
    expect(mail.text).toContain('以前の版が積んだメールです。');
    const [delivery] = await until('the delivery row', async () => {
      const rows = await deliveriesTo(app, to);
      return rows.length > 0 && rows;
    });
    expect(delivery).toMatchObject({ id, kind: 'password-changed', subject: legacy.subject });
  });
});

describe('mail plugin without SMTP_URL', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ plugins: ONLY_MAIL });
  });
  afterAll(() => app?.close());

  async function deliveredTo(to: string, count = 1) {
    return until(`${count} deliveries to ${to}`, async () => {
      const rows = await deliveriesTo(app, to);
      return rows.length >= count && rows;
    });
  }

  it('writes the mail as <dataDir>/outbox/<id>.eml', async () => {
    const org = await signUpOrganization(app);
    const [delivery] = await deliveredTo(org.email);
    expect(delivery).toMatchObject({ kind: 'welcome', transport: 'outbox' });

    const outbox = path.join(app.dataDir, 'outbox');
    const file = path.join(outbox, `${delivery!.id}.eml`);
    expect(existsSync(file)).toBe(true);
    expect(readdirSync(outbox).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const parsed = await simpleParser(readFileSync(file));
    expect(parsed.messageId).toBe(`<${delivery!.id}@keiyaku.mail>`);
    expect(parsed.subject).toBe(WELCOME_SUBJECT);
    expect(parsed.text).toContain(org.loginId);
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value[0]?.address).toBe(org.email);
  });

  it('lists the organization’s deliveries to an admin, newest first, page by page, and never another organization’s', async () => {
    const a = await signUpOrganization(app);
    await deliveredTo(a.email, 1);
    app.clock.advance(60_000);
    const b = await signUpOrganization(app, { organizationName: '別の株式会社' });
    await deliveredTo(b.email, 1);
    app.clock.advance(60_000);
    await requestReset(app, a.loginId, a.email);
    await deliveredTo(a.email, 2);
    app.clock.advance(60_000);
    await requestReset(app, a.loginId, a.email);
    const rowsOfA = await deliveredTo(a.email, 3); // oldest first
    const newestFirst = [...rowsOfA].reverse().map((row) => row.id);

    const tokenA = (await signIn(app, a.loginId)).authorizationToken;
    const page1 = await app.api.call('listMailDeliveries', {
      token: tokenA,
      query: { 'page[size]': 2, 'page[number]': 1 },
    });
    expect(page1.status).toBe(200);
    expect(page1.body.meta).toEqual({ total: 3 });
    expect(page1.body.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(0, 2));
    expect(page1.body.data[0].attributes).toMatchObject({
      to: a.email,
      subject: RESET_SUBJECT,
      kind: 'password-reset',
      transport: 'outbox',
    });
    const page2 = await app.api.call('listMailDeliveries', {
      token: tokenA,
      query: { 'page[size]': 2, 'page[number]': 2 },
    });
    expect(page2.body.data.map((d: { id: string }) => d.id)).toEqual(newestFirst.slice(2));
    expect(page2.body.data[0].attributes).toMatchObject({ kind: 'welcome', subject: WELCOME_SUBJECT });
    const page3 = await app.api.call('listMailDeliveries', {
      token: tokenA,
      query: { 'page[size]': 2, 'page[number]': 3 },
    });
    expect(page3.body).toEqual({ data: [], meta: { total: 3 } });
    const all = await app.api.call('listMailDeliveries', { token: tokenA });
    const times = all.body.data.map((d: { attributes: { deliveredAt: string } }) =>
      Date.parse(d.attributes.deliveredAt),
    );
    expect(times).toEqual([...times].sort((x, y) => y - x));
    expect(all.body.data.every((d: { attributes: { to: string } }) => d.attributes.to === a.email)).toBe(true);

    const tokenB = (await signIn(app, b.loginId)).authorizationToken;
    const ofB = await app.api.call('listMailDeliveries', { token: tokenB });
    expect(ofB.body.meta).toEqual({ total: 1 });
    expect(ofB.body.data.map((d: { attributes: { to: string } }) => d.attributes.to)).toEqual([b.email]);
  });

  it('refuses the list to a signed-out caller (401) and to a user who is not an admin (403 FUNCTION_NOT_PERMITTED)', async () => {
    expect((await app.api.call('listMailDeliveries')).status).toBe(401);
    const org = await signUpOrganization(app);
    const token = (await signIn(app, org.loginId)).authorizationToken;
    // No user-management API exists yet: demote the owner in the database to get a non-admin principal.
    await app.service.deps.knex('users').where({ id: org.ownerId }).update({ is_admin: false });
    const response = await app.api.call('listMailDeliveries', { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
  });
});

describe('mail plugin turned off (KEIYAKU_PLUGINS_DISABLED=mail)', () => {
  let off: TestApp;
  let on: TestApp | undefined;

  beforeAll(async () => {
    off = await startApp({ env: { KEIYAKU_PLUGINS_DISABLED: 'mail' }, plugins: ONLY_MAIL });
  });
  afterAll(async () => {
    await on?.close();
    await off?.close();
  });

  it('answers 403 PLAN_FEATURE_UNAVAILABLE, keeps sign-up and sign-in working and mail queued, and delivers it when the plugin is on again', async () => {
    const org = await signUpOrganization(off);
    const { authorizationToken } = await signIn(off, org.loginId, PASSWORD);

    const listed = await off.api.call('listMailDeliveries', { token: authorizationToken });
    expect(listed.status).toBe(403);
    expect(listed.body.errors[0].code).toBe('PLAN_FEATURE_UNAVAILABLE');
    expect((await off.api.call('listMailDeliveries')).status).toBe(401);
    const ready = await off.api.call('getReadiness');
    expect(ready.status).toBe(200);
    expect(ready.body.checks).not.toHaveProperty('plugin:mail');

    await requestReset(off, org.loginId, org.email);
    // Core composes the mail (through its own job) and queues it whether or not a plugin will deliver it.
    const [queued] = await until('the reset mail to be queued', async () => {
      const mails = await queuedMails(off, org.email);
      return mails.length > 0 && mails;
    });
    expect(queued).toMatchObject({ state: 'created' });
    // Several polling intervals later nothing has taken it, failed it or dropped it.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(await queuedMails(off, org.email)).toEqual([{ id: queued!.id, state: 'created', retry_count: 0 }]);
    expect(await off.service.deps.jobs.counts(MAIL_SEND_JOB)).toEqual({ created: 1 });
    expect(await deliveriesTo(off, org.email)).toEqual([]);

    await off.service.close();
    on = await startApp({ databaseOf: off, plugins: ONLY_MAIL });
    const app = on;
    const [delivery] = await until('the queued mail to be delivered', async () => {
      const rows = await deliveriesTo(app, org.email);
      return rows.length > 0 && rows;
    });
    expect(delivery).toMatchObject({ id: queued!.id, kind: 'password-reset', transport: 'outbox' });
    const parsed = await simpleParser(readFileSync(path.join(app.dataDir, 'outbox', `${queued!.id}.eml`)));
    expect(parsed.messageId).toBe(`<${queued!.id}@keiyaku.mail>`);
    expect(parsed.subject).toBe(RESET_SUBJECT);
    expect((await resetPassword(app, resetTokenIn(parsed.text ?? ''))).status).toBe(204);
  }, 60_000);
});
