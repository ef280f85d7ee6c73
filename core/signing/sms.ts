/*
 * SMS as core queues it: one durable 'sms.send' job per message, in the caller's transaction, delivered by the sms
 * plugin's gateway. Only Japanese mobile numbers (060/070/080/090 and 8 more digits) are accepted.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { JobQueue } from '../jobs/index.ts';

export const SMS_SEND_JOB = 'sms.send';

export interface SmsMessage {
  id: string;
  to: string;
  text: string;
  organizationId: string | null;
  userId: string | null;
}

/** Digits only ("090-1234-5678" → "09012345678"), or null when it is not a Japanese mobile number. */
export function mobileNumber(raw: string | null | undefined): string | null {
  const digits = (raw ?? '').replace(/[\s\-()]/g, '');
  return /^0[6789]0\d{8}$/.test(digits) ? digits : null;
}

export async function queueSms(
  jobs: JobQueue,
  trx: Knex.Transaction,
  message: Omit<SmsMessage, 'id'>,
): Promise<string> {
  const id = randomUUID();
  await jobs.send(SMS_SEND_JOB, { ...message, id } satisfies SmsMessage, { trx, id });
  return id;
}
