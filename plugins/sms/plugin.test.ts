import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Plugin } from '../../core/plugins/index.ts';
import { SMS_SEND_JOB } from '../../core/signing/sms.ts';
import { startApp, type TestApp } from '../../tests/helpers/app.ts';
import { smsPlugin } from './index.ts';

const ONLY_SMS = [smsPlugin as Plugin<never>];

interface OutboxRow {
  id: string;
  phone_number: string;
  body: string;
}

/** Polls until the outbox holds `count` messages to the number, oldest first. */
async function outboxTo(app: TestApp, phone: string, count = 1): Promise<OutboxRow[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rows = (await app.service.deps
      .knex('sms_outbox')
      .where({ phone_number: phone })
      .orderBy('created_at')) as OutboxRow[];
    if (rows.length >= count) return rows;
    if (Date.now() > deadline) throw new Error(`no ${count} SMS to ${phone} after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

let serial = 0;
const newPhone = () => `090${String(process.pid).slice(-4).padStart(4, '0')}${String(serial++).padStart(4, '0')}`;

describe('sms plugin', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startApp({ plugins: ONLY_SMS });
  });
  afterAll(() => app?.close());

  async function queue(phone: string, code: string, locale: 'ja' | 'en'): Promise<string> {
    const { knex, mailer } = app.service.deps;
    return knex.transaction((trx) =>
      mailer.sendSms(trx, {
        kind: 'signing-code',
        to: phone,
        locale,
        params: { code, minutes: '10', expiry: '12:34' },
      }),
    );
  }

  it('renders the signing code in the recipient’s language when it sends it, from a job that holds only the id', async () => {
    const ja = newPhone();
    const en = newPhone();
    const jaId = await queue(ja, '482915', 'ja');
    const enId = await queue(en, '731604', 'en');
    const { knex } = app.service.deps;
    expect(await knex('pgboss.job').where({ id: jaId }).first('name', 'data')).toEqual({
      name: SMS_SEND_JOB,
      data: { messageId: jaId },
    });

    const [jaSms] = await outboxTo(app, ja);
    const [enSms] = await outboxTo(app, en);
    expect(jaSms).toMatchObject({ id: jaId, body: 'Keiyaku 署名の認証コード: 482915（10分間有効）' });
    expect(enSms).toMatchObject({ id: enId, body: 'Keiyaku signing code: 731604 (valid 10 min, until 12:34 UTC)' });
    const stored = await knex('outgoing_messages').whereIn('id', [jaId, enId]).select('params', 'secret_params');
    for (const row of stored) {
      expect(row.params).toEqual({ minutes: '10', expiry: '12:34' });
      expect(row.secret_params).toBeNull();
    }
  });

  it('sends once when a second job names a message already sent', async () => {
    const phone = newPhone();
    const id = await queue(phone, '159260', 'ja');
    await outboxTo(app, phone);
    const { jobs, knex } = app.service.deps;
    const again = await jobs.send(SMS_SEND_JOB, { messageId: id });
    const deadline = Date.now() + 10_000;
    while ((await knex('pgboss.job').where({ id: again }).first('state'))?.state !== 'completed') {
      if (Date.now() > deadline) throw new Error('the second job did not complete');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await knex('sms_outbox').where({ phone_number: phone })).toHaveLength(1);
  });

  it('refuses Twilio status reports with 403 while the gateway is the outbox', async () => {
    const response = await fetch(`${app.url}/core/v1/sms/twilio/status`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'c2lnbmF0dXJl' },
      body: 'MessageSid=SM0123&MessageStatus=delivered',
    });
    expect(response.status).toBe(403);
    const body = (await response.json()) as { errors: { code: string }[] };
    expect(body.errors[0]!.code).toBe('SMS_STATUS_SIGNATURE_INVALID');
  });

  it('still sends a job queued by an earlier version, which carries the rendered text itself', async () => {
    const phone = newPhone();
    const id = randomUUID();
    const legacy = { id, to: phone, text: 'Keiyaku 署名の認証コード: 000111', organizationId: null, userId: null };
    await app.service.deps.jobs.send(SMS_SEND_JOB, legacy, { id });
    const [sms] = await outboxTo(app, phone);
    expect(sms).toMatchObject({ id, body: legacy.text });
  });
});
