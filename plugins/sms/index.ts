/*
 * SMS delivery for two-factor signing codes. Core queues one 'sms.send' job per message in the transaction that
 * created the code; the job carries the message's id only, and this plugin renders the text when it delivers it
 * through its gateway (gateway.ts). The embedded default is the outbox: the message is stored in sms_outbox, where
 * an operator or a test reads it, and nothing is sent. With KEIYAKU_PLUGIN_SMS_GATEWAY=twilio the message goes to
 * Twilio, its delivery is recorded in sms_deliveries, and Twilio's status reports (POST /sms/twilio/status) update
 * it.
 */
import type { OutgoingMessageJob } from '../../core/mail/outgoing.ts';
import {
  AppError,
  definePlugin,
  perIp,
  type PluginContext,
  SMS_SEND_JOB,
  type SmsMessage,
} from '../../core/plugins/index.ts';
import {
  type DeliveryStatus,
  deliveryStatusOf,
  earlierStatuses,
  japaneseMobileE164,
  PermanentCarrierError,
  type SmsConfig,
  smsConfig,
  TwilioGateway,
} from './gateway.ts';

type Ctx = PluginContext<SmsConfig>;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Where Twilio posts status reports: the public address the signatures are made over. */
export const STATUS_CALLBACK_PATH = '/core/v1/sms/twilio/status';
const statusCallbackUrl = (ctx: Ctx) => `${ctx.publicUrl}${STATUS_CALLBACK_PATH}`;

// One SDK client per configuration (several services may run in one process, as in tests).
const gateways = new WeakMap<SmsConfig, TwilioGateway>();
function twilioGateway(ctx: Ctx): TwilioGateway | null {
  const config = ctx.config;
  if (config.gateway !== 'twilio' || !config.twilioAccountSid || !config.twilioAuthToken) return null;
  let gateway = gateways.get(config);
  if (!gateway) {
    gateway = new TwilioGateway({
      ...config,
      twilioAccountSid: config.twilioAccountSid,
      twilioAuthToken: config.twilioAuthToken,
    });
    gateways.set(config, gateway);
  }
  return gateway;
}

/** Stores the message in the outbox and closes it, in one transaction (a retried job stores it once). */
async function keepInOutbox(ctx: Ctx, message: SmsMessage): Promise<void> {
  await ctx.db.transaction(async (trx) => {
    await trx('sms_outbox')
      .insert({
        id: message.id,
        organization_id: message.organizationId,
        user_id: message.userId,
        phone_number: message.to,
        body: message.text,
        created_at: ctx.clock.now(),
      })
      .onConflict('id')
      .ignore(); // a retried job delivers once
    await ctx.mail.markSent(message.id, trx);
  });
}

/**
 * Sends the message through Twilio. The delivery row is written ('sending') in its own transaction before Twilio
 * is called, and a message whose row already has Twilio's sid (or failed for good) is not sent again. A refusal
 * for good (4xx: invalid number...) is recorded as failed and not retried; 5xx, 429 and network errors throw, so
 * the job is tried again, and are recorded as failed on the last try.
 */
async function sendThroughTwilio(
  ctx: Ctx,
  gateway: TwilioGateway,
  message: SmsMessage,
  lastTry: boolean,
): Promise<void> {
  const now = ctx.clock.now();
  const delivery = await ctx.db.transaction(async (trx) => {
    await trx('sms_deliveries')
      .insert({
        message_id: message.id,
        organization_id: message.organizationId,
        gateway: 'twilio',
        status: 'sending',
        created_at: now,
        updated_at: now,
      })
      .onConflict('message_id')
      .ignore();
    return (await trx('sms_deliveries').where({ message_id: message.id }).first('carrier_message_sid', 'status')) as {
      carrier_message_sid: string | null;
      status: string;
    };
  });
  if (delivery.carrier_message_sid || delivery.status === 'failed') {
    await ctx.mail.markSent(message.id); // handed over before a crash: make sure the code is wiped all the same
    return;
  }
  const close = (changes: { status: DeliveryStatus; carrier_message_sid?: string; error_code: string | null }) =>
    ctx.db.transaction(async (trx) => {
      let closing = changes;
      // A report Twilio posted before this answer came back was parked (recordReport): it is the newer news.
      if (changes.carrier_message_sid) {
        const early = await trx('sms_early_reports')
          .where({ carrier_message_sid: changes.carrier_message_sid })
          .first<{ status: DeliveryStatus; error_code: string | null } | undefined>();
        if (early && earlierStatuses(early.status).includes(changes.status)) {
          closing = { ...changes, status: early.status, error_code: early.error_code };
        }
        if (early) await trx('sms_early_reports').where({ carrier_message_sid: changes.carrier_message_sid }).delete();
      }
      await trx('sms_deliveries')
        .where({ message_id: message.id })
        .update({ ...closing, updated_at: ctx.clock.now() });
      await ctx.mail.markSent(message.id, trx);
    });
  const to = japaneseMobileE164(message.to);
  if (!to) {
    ctx.log.warn({ messageId: message.id }, 'sms: not a Japanese mobile number; not sent');
    await close({ status: 'failed', error_code: 'NUMBER_INVALID' });
    return;
  }
  try {
    const receipt = await gateway.send({ to, body: message.text, statusCallback: statusCallbackUrl(ctx) });
    await close({ carrier_message_sid: receipt.sid, status: receipt.status, error_code: receipt.errorCode });
  } catch (error) {
    if (!(error instanceof PermanentCarrierError)) {
      const errorCode = TwilioGateway.transientErrorCode(error);
      if (lastTry) {
        await ctx
          .db('sms_deliveries')
          .where({ message_id: message.id })
          .update({ status: 'failed', error_code: errorCode, updated_at: ctx.clock.now() });
      }
      const what = lastTry ? 'gave up' : 'will retry';
      // The SDK's network errors carry the request (its Authorization header, the code in the body): only the code
      // goes to the log and to the queue.
      ctx.log.warn({ messageId: message.id, errorCode }, `sms: Twilio did not take the message; ${what}`);
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`sms ${message.id}: Twilio did not take the message (${errorCode}); ${what}`);
    }
    ctx.log.warn({ messageId: message.id, errorCode: error.errorCode }, 'sms: Twilio refused the message');
    await close({ status: 'failed', error_code: error.errorCode });
  }
}

/**
 * Records a status report: a delivery moves forward only (a late report changes nothing). A report for a sid not
 * stored yet (Twilio answered the send after posting it) is parked until the send stores the sid, for a day at most.
 */
async function recordReport(ctx: Ctx, sid: string, status: DeliveryStatus, errorCode: string | null): Promise<void> {
  const now = ctx.clock.now();
  const updated = await ctx
    .db('sms_deliveries')
    .where({ carrier_message_sid: sid })
    .whereIn('status', earlierStatuses(status))
    .update({ status, error_code: errorCode, updated_at: now });
  if (updated > 0 || (await ctx.db('sms_deliveries').where({ carrier_message_sid: sid }).first('message_id'))) return;
  await ctx
    .db('sms_early_reports')
    .where('received_at', '<', new Date(now.getTime() - DAY_MS))
    .delete();
  await ctx
    .db('sms_early_reports')
    .insert({ carrier_message_sid: sid, status, error_code: errorCode, received_at: now })
    .onConflict('carrier_message_sid')
    .merge(['status', 'error_code', 'received_at'])
    .whereIn('sms_early_reports.status', earlierStatuses(status));
}

export const smsPlugin = definePlugin<SmsConfig>({
  name: 'sms',
  migrations: new URL('./migrations/', import.meta.url),
  config: smsConfig,

  async start(ctx) {
    if (ctx.config.gateway === 'outbox') {
      ctx.log.warn(
        { gateway: 'outbox' },
        'sms: the gateway is the embedded outbox (table sms_outbox): it sends nothing; set KEIYAKU_PLUGIN_SMS_GATEWAY=twilio to send SMS',
      );
      return;
    }
    const { twilioFrom, twilioMessagingServiceSid, twilioApiUrl } = ctx.config;
    ctx.log.info(
      { gateway: 'twilio', from: twilioFrom, messagingServiceSid: twilioMessagingServiceSid },
      `sms: sending through Twilio; status reports at ${statusCallbackUrl(ctx)}`,
    );
    if (twilioApiUrl) ctx.log.warn({ apiUrl: twilioApiUrl }, 'sms: Twilio API calls go to another origin (tests only)');
  },

  routes(router, ctx) {
    const limits = [perIp('smsStatusPerIp'), perIp('smsStatusSignaturePerIp')];
    router.operation('receiveTwilioSmsStatus', { rateLimit: limits }, async ({ body, header }) => {
      const gateway = twilioGateway(ctx);
      const fields = body as Record<string, string>;
      if (!gateway?.validSignature(header('x-twilio-signature'), statusCallbackUrl(ctx), fields)) {
        throw new AppError('SMS_STATUS_SIGNATURE_INVALID');
      }
      const status = deliveryStatusOf(body.MessageStatus);
      if (status) await recordReport(ctx, body.MessageSid, status, body.ErrorCode || null);
      return { status: 204 };
    });
  },

  jobs: {
    [SMS_SEND_JOB]: {
      policy: (config) => ({
        retryLimit: config.retryLimit,
        retryDelaySeconds: config.retryDelaySeconds,
        retryBackoff: true,
      }),
      async handler(job, ctx) {
        // Jobs queued before messages were stored apart (outgoing_messages) carry the rendered SMS itself.
        const data = job.data as OutgoingMessageJob | SmsMessage;
        const message = 'messageId' in data ? await ctx.mail.prepareSms(data.messageId) : data;
        if (!message) return; // sent before (a retried job delivers once) or gone
        const gateway = twilioGateway(ctx);
        if (gateway) await sendThroughTwilio(ctx, gateway, message, job.retryCount >= ctx.config.retryLimit);
        else await keepInOutbox(ctx, message);
      },
    },
  },
});
