/*
 * The Twilio gateway of the sms plugin, driven through Twilio's official SDK against a local double of its
 * Messages API (tests/peers/twilio-messages.ts): E.164 numbers, delivery records, signed status reports, retries,
 * permanent refusals, and a sign task with SMS two-factor completed with the code the double received.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.ts';
import { type HostDeps, type Plugin, PluginHost } from '../../core/plugins/index.ts';
import { BUILT_IN_PLUGINS } from '../../core/service.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { confirmEmailOf, signTaskCall } from '../../tests/helpers/signing.ts';
import { groupTask, newDocument, plan, seedTaskWorld } from '../../tests/helpers/tasks.ts';
import { TwilioMessagesApi, twilioAccount, type TwilioMessage } from '../../tests/peers/twilio-messages.ts';
import { japaneseMobileE164, type SmsConfig } from './gateway.ts';
import { smsPlugin, STATUS_CALLBACK_PATH } from './index.ts';

const PUBLIC_URL = 'https://keiyaku.example.jp';
const FROM = '+15005550006';

describe('japaneseMobileE164', () => {
  it('writes 060/070/080/090 numbers in E.164, with or without hyphens and spaces', () => {
    expect(japaneseMobileE164('090-1234-5678')).toBe('+819012345678');
    expect(japaneseMobileE164('09012345678')).toBe('+819012345678');
    expect(japaneseMobileE164('080 1234 5678')).toBe('+818012345678');
    expect(japaneseMobileE164('070-9876-5432')).toBe('+817098765432');
    expect(japaneseMobileE164('060-1111-2222')).toBe('+816011112222');
  });

  it('keeps a number already in +81 form', () => {
    expect(japaneseMobileE164('+819012345678')).toBe('+819012345678');
    expect(japaneseMobileE164('+81-90-1234-5678')).toBe('+819012345678');
  });

  it('refuses landlines, other countries, wrong lengths and empty input', () => {
    for (const raw of [
      '03-1234-5678',
      '050-1234-5678',
      '0120-123-456',
      '090-1234-567',
      '090-1234-56789',
      '+14155550100',
      '+81312345678',
      '9012345678',
      '',
    ]) {
      expect(japaneseMobileE164(raw), raw).toBeNull();
    }
  });
});

describe('sms configuration', () => {
  async function loadWith(env: Record<string, string>): Promise<Error> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'keiyaku-sms-'));
    try {
      const config = loadConfig({
        KEIYAKU_DATA_DIR: dataDir,
        KEIYAKU_MASTER_KEY: randomBytes(32).toString('base64'),
        PORT: '0',
        LOG_LEVEL: 'silent',
        ...env,
      });
      // Configuration is validated before anything else is touched: the host needs nothing more to refuse it.
      const host = new PluginHost([smsPlugin as Plugin<never>], { config } as HostDeps);
      return await host.load().then(
        () => new Error('the configuration was accepted'),
        (error: Error) => error,
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }

  it('stops start-up when twilio lacks its account, token or sender, or names an unknown gateway', async () => {
    const { accountSid, authToken } = twilioAccount();
    expect((await loadWith({ KEIYAKU_PLUGIN_SMS_GATEWAY: 'twilio' })).message).toMatch(
      /^plugin sms: invalid configuration: .*must have required property 'twilioAccountSid'/,
    );
    const noSender = await loadWith({
      KEIYAKU_PLUGIN_SMS_GATEWAY: 'twilio',
      KEIYAKU_PLUGIN_SMS_TWILIO_ACCOUNT_SID: accountSid,
      KEIYAKU_PLUGIN_SMS_TWILIO_AUTH_TOKEN: authToken,
    });
    expect(noSender.message).toMatch(/^plugin sms: invalid configuration: .*must have required property 'twilioFrom'/);
    const badSid = await loadWith({
      KEIYAKU_PLUGIN_SMS_GATEWAY: 'twilio',
      KEIYAKU_PLUGIN_SMS_TWILIO_ACCOUNT_SID: 'not-a-sid',
      KEIYAKU_PLUGIN_SMS_TWILIO_AUTH_TOKEN: authToken,
      KEIYAKU_PLUGIN_SMS_TWILIO_FROM: FROM,
    });
    expect(badSid.message).toMatch(/^plugin sms: invalid configuration: \/twilioAccountSid must match pattern/);
    expect((await loadWith({ KEIYAKU_PLUGIN_SMS_GATEWAY: 'carrier-pigeon' })).message).toMatch(
      /^plugin sms: invalid configuration: \/gateway must be equal to one of the allowed values/,
    );
  });

  it('says at start that the embedded outbox sends nothing', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const log = pino({ level: 'info' }, sink);
    await smsPlugin.start!({ config: { gateway: 'outbox', twilioTimeoutSeconds: 10 } as SmsConfig, log } as never);
    const [line] = lines.map((l) => JSON.parse(l) as { level: number; msg: string; gateway: string });
    expect(line).toMatchObject({ level: 40, gateway: 'outbox' });
    expect(line!.msg).toMatch(/embedded outbox \(table sms_outbox\): it sends nothing/);
  });
});

describe('the twilio gateway', () => {
  let twilioApi: TwilioMessagesApi;
  let app: TestApp;

  beforeAll(async () => {
    twilioApi = await TwilioMessagesApi.start();
    app = await startApp({
      plugins: BUILT_IN_PLUGINS.filter((p) => !/scan|box/.test(p.name)),
      env: {
        KEIYAKU_PUBLIC_URL: PUBLIC_URL,
        KEIYAKU_PLUGIN_SMS_GATEWAY: 'twilio',
        KEIYAKU_PLUGIN_SMS_TWILIO_ACCOUNT_SID: twilioApi.accountSid,
        KEIYAKU_PLUGIN_SMS_TWILIO_AUTH_TOKEN: twilioApi.authToken,
        KEIYAKU_PLUGIN_SMS_TWILIO_FROM: FROM,
        KEIYAKU_PLUGIN_SMS_TWILIO_API_URL: twilioApi.url,
        KEIYAKU_PLUGIN_SMS_RETRY_LIMIT: '2',
        KEIYAKU_PLUGIN_SMS_RETRY_DELAY_SECONDS: '1',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await twilioApi?.close();
  });

  const knex = () => app.service.deps.knex;
  let serial = 0;
  const newPhone = () => `090-${String(process.pid).slice(-4).padStart(4, '0')}-${String(serial++).padStart(4, '0')}`;
  const e164 = (phone: string) => japaneseMobileE164(phone)!;

  function queue(phone: string, code: string): Promise<string> {
    const { mailer } = app.service.deps;
    return knex().transaction((trx) =>
      mailer.sendSms(trx, {
        kind: 'signing-code',
        to: phone,
        locale: 'ja',
        params: { code, minutes: '10', expiry: '12:34' },
      }),
    );
  }

  interface DeliveryRow {
    message_id: string;
    organization_id: string | null;
    gateway: string;
    carrier_message_sid: string | null;
    status: string;
    error_code: string | null;
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const value = await probe();
      if (value) return value;
      if (Date.now() > deadline) throw new Error(`${what}: not after ${ms} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const delivery = (messageId: string) =>
    knex()('sms_deliveries').where({ message_id: messageId }).first<DeliveryRow | undefined>();
  const deliveryIn = (messageId: string, statuses: string[]) =>
    until(`delivery ${messageId} in ${statuses.join('/')}`, async () => {
      const row = await delivery(messageId);
      return row && statuses.includes(row.status) ? row : undefined;
    });
  const messagesTo = (phone: string) => twilioApi.messages.filter((m) => m.to === e164(phone));
  const sentTo = (phone: string): Promise<TwilioMessage> =>
    until(`an SMS to ${phone}`, async () => messagesTo(phone)[0]);
  const jobState = async (id: string) => (await knex()('pgboss.job').where({ id }).first('state'))?.state as string;

  it('sends through the SDK to the E.164 number, with the status callback, and records the delivery', async () => {
    const phone = newPhone();
    const id = await queue(phone, '482915');
    const message = await sentTo(phone);
    expect(message).toMatchObject({
      to: e164(phone),
      from: FROM,
      body: 'Keiyaku 署名の認証コード: 482915（10分間有効）',
      statusCallback: `${PUBLIC_URL}${STATUS_CALLBACK_PATH}`,
    });
    const row = await deliveryIn(id, ['queued']);
    expect(row).toMatchObject({ gateway: 'twilio', carrier_message_sid: message.sid, error_code: null });
    const stored = await knex()('outgoing_messages').where({ id }).first('sent_at', 'secret_params');
    expect(stored.sent_at).not.toBeNull();
    expect(stored.secret_params).toBeNull();
    expect(await knex()('sms_outbox').where({ id })).toHaveLength(0); // the outbox is not the gateway now
  });

  it('records signed status reports in order, ignores late ones, and refuses a bad signature with 403', async () => {
    const phone = newPhone();
    const id = await queue(phone, '731604');
    const { sid } = await sentTo(phone);
    await deliveryIn(id, ['queued']);

    const forged = await twilioApi.reportStatus(sid, 'failed', { origin: app.url, authToken: 'someone-else' });
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe(
      'SMS_STATUS_SIGNATURE_INVALID',
    );
    expect((await delivery(id))!.status).toBe('queued');

    expect((await twilioApi.reportStatus(sid, 'sent', { origin: app.url })).status).toBe(204);
    expect((await delivery(id))!.status).toBe('sent');
    expect((await twilioApi.reportStatus(sid, 'delivered', { origin: app.url })).status).toBe(204);
    expect((await delivery(id))!.status).toBe('delivered');
    expect((await twilioApi.reportStatus(sid, 'sent', { origin: app.url })).status).toBe(204); // late: no change
    expect((await delivery(id))!.status).toBe('delivered');

    const other = newPhone();
    const otherId = await queue(other, '111222');
    const otherSms = await sentTo(other);
    await deliveryIn(otherId, ['queued']);
    const undelivered = await twilioApi.reportStatus(otherSms.sid, 'undelivered', {
      origin: app.url,
      errorCode: '30003',
    });
    expect(undelivered.status).toBe(204);
    expect(await delivery(otherId)).toMatchObject({ status: 'undelivered', error_code: '30003' });
  });

  it('keeps a report that outruns the send answer and applies it when the sid is stored', async () => {
    const phone = newPhone();
    twilioApi.beforeAnswer = async (message) => {
      const early = await twilioApi.reportStatus(message.sid, 'undelivered', { origin: app.url, errorCode: '30005' });
      expect(early.status).toBe(204);
    };
    try {
      const id = await queue(phone, '550011');
      const { sid } = await sentTo(phone);
      expect(await deliveryIn(id, ['undelivered'])).toMatchObject({ carrier_message_sid: sid, error_code: '30005' });
      expect(await knex()('sms_early_reports').where({ carrier_message_sid: sid }).first()).toBeUndefined();
    } finally {
      twilioApi.beforeAnswer = null;
    }
  });

  it('reads form bodies only where the contract declares them (415 elsewhere and for JSON here)', async () => {
    const form = await fetch(`${app.url}/core/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'loginId=a&password=b',
    });
    expect(form.status).toBe(415);
    const json = await fetch(`${app.url}${STATUS_CALLBACK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ MessageSid: 'SM1', MessageStatus: 'delivered' }),
    });
    expect(json.status).toBe(415);
    const unsigned = await fetch(`${app.url}${STATUS_CALLBACK_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'MessageSid=SM1&MessageStatus=delivered',
    });
    expect(unsigned.status).toBe(403);
  });

  it('tries again after Twilio answers 500, and sends once', async () => {
    const phone = newPhone();
    twilioApi.failNext(1);
    const id = await queue(phone, '159260');
    const row = await deliveryIn(id, ['queued']);
    expect(messagesTo(phone)).toHaveLength(1);
    expect(row.carrier_message_sid).toBe(messagesTo(phone)[0]!.sid);
    expect(twilioApi.requests.filter((r) => r.status === 500).length).toBeGreaterThanOrEqual(1);

    // A second job for the same message (a retry after a crash) does not send it again.
    const again = await app.service.deps.jobs.send('sms.send', { messageId: id });
    await until('the second job', async () => (await jobState(again!)) === 'completed');
    expect(messagesTo(phone)).toHaveLength(1);
  });

  it('records the message as failed when Twilio still fails on the last try', async () => {
    const phone = newPhone();
    const failuresBefore = twilioApi.requests.filter((r) => r.status === 500).length;
    twilioApi.failNext(3); // the first try and both retries (KEIYAKU_PLUGIN_SMS_RETRY_LIMIT=2)
    const id = await queue(phone, '404404');
    const row = await deliveryIn(id, ['failed']);
    expect(row).toMatchObject({ carrier_message_sid: null, error_code: '20500' });
    await until('the job to fail', async () => (await jobState(id)) === 'failed');
    expect(twilioApi.requests.filter((r) => r.status === 500).length - failuresBefore).toBe(3);
    expect(messagesTo(phone)).toHaveLength(0);
  });

  it('records a permanent refusal (21211) as failed and does not retry it', async () => {
    const phone = newPhone();
    twilioApi.invalidNumbers.add(e164(phone));
    const id = await queue(phone, '990011');
    const row = await deliveryIn(id, ['failed']);
    expect(row).toMatchObject({ carrier_message_sid: null, error_code: '21211' });
    await until('the job', async () => (await jobState(id)) === 'completed');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const refused = twilioApi.requests.filter((r) => r.status === 400);
    expect(refused).toHaveLength(1);
    const stored = await knex()('outgoing_messages').where({ id }).first('sent_at', 'secret_params');
    expect(stored.secret_params).toBeNull(); // the code is wiped: it will never be sent
  });

  it('completes a sign task with SMS two-factor using the code Twilio received', async () => {
    const w = await seedTaskWorld(app);
    for (const user of [w.userA1, w.userA2, w.userB]) await confirmEmailOf(app, user.id);
    const documentId = await newDocument(app, w.ownerA.token, w.flowId);
    const [task] = await plan(app, w.ownerA.token, documentId, [
      groupTask(1, 'sign', w.g1, { signatureType: 'operator', twoFactor: 'sms' }),
    ]);
    const phone = newPhone();
    await knex()('users').where({ id: w.userA1.id }).update({ mobile_phone: phone });
    const sent = await app.api.call('requestSigningCode', { token: w.userA1.token, params: { taskId: task!.id } });
    expect(sent.status).toBe(202);
    expect(sent.body.data.attributes).toMatchObject({ channel: 'sms' });

    const sms = await sentTo(phone);
    expect(sms.to).toBe(e164(phone));
    const code = /(\d{6})/.exec(sms.body)![1]!;
    const signed = await signTaskCall(app, w.userA1.token, task!.id, { code });
    expect(signed.status).toBe(200);
    expect(signed.body.data.attributes.status).toBe('completed');
    expect(signed.body.meta.document.status).toBe('completed');
    const row = await knex()('sms_deliveries').where({ carrier_message_sid: sms.sid }).first();
    expect(row).toMatchObject({ organization_id: w.ownerA.organizationId, status: 'queued' });
  });
});
