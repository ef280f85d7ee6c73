/*
 * SMS delivery for two-factor signing codes. Core queues one 'sms.send' job per message in the transaction that
 * created the code; the job carries the message's id only, and this plugin renders the text when it delivers it
 * through its gateway. The embedded default (and the only gateway in this build) is the outbox: the message is
 * stored in sms_outbox, where an operator or a test reads it. A real carrier gateway is another transport behind
 * the same job.
 */
import type { OutgoingMessageJob } from '../../core/mail/outgoing.ts';
import { definePlugin, SMS_SEND_JOB, type SmsMessage } from '../../core/plugins/index.ts';

export const smsPlugin = definePlugin({
  name: 'sms',
  migrations: new URL('./migrations/', import.meta.url),
  jobs: {
    [SMS_SEND_JOB]: {
      policy: () => ({ retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true }),
      async handler(job, ctx) {
        // Jobs queued before messages were stored apart (outgoing_messages) carry the rendered SMS itself.
        const data = job.data as OutgoingMessageJob | SmsMessage;
        const message = 'messageId' in data ? await ctx.mail.prepareSms(data.messageId) : data;
        if (!message) return; // sent before (a retried job delivers once) or gone
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
      },
    },
  },
});
