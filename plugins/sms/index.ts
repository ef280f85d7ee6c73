/*
 * SMS delivery for two-factor signing codes. Core queues one 'sms.send' job per message in the transaction that
 * created the code; this plugin delivers it through its gateway. The embedded default (and the only gateway in
 * this build) is the outbox: the message is stored in sms_outbox, where an operator or a test reads it. A real
 * carrier gateway is another transport behind the same job.
 */
import { definePlugin, SMS_SEND_JOB, type SmsMessage } from '../../core/plugins/index.ts';

export const smsPlugin = definePlugin({
  name: 'sms',
  migrations: new URL('./migrations/', import.meta.url),
  jobs: {
    [SMS_SEND_JOB]: {
      policy: () => ({ retryLimit: 5, retryDelaySeconds: 5, retryBackoff: true }),
      async handler(job, ctx) {
        const message = job.data as SmsMessage;
        await ctx
          .db('sms_outbox')
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
      },
    },
  },
});
