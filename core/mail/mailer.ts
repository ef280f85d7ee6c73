import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Locale } from '../http/errors.ts';
import type { JobQueue } from '../jobs/index.ts';
import { composeMail, type MailKind } from './messages.ts';

/** The job that delivers one mail; the mail plugin handles it. */
export const MAIL_SEND_JOB = 'mail.send';

/** One message as queued: everything the transport needs, nothing it has to look up. */
export interface OutgoingMail {
  id: string;
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  organizationId: string | null;
  userId: string | null;
}

/**
 * Queues mail as durable jobs in the caller's transaction: a mail exists exactly when the change that caused it
 * committed, and waits in the queue (retried) while no transport can take it.
 */
export class Mailer {
  constructor(private readonly jobs: JobQueue) {}

  async send(
    trx: Knex.Transaction,
    message: {
      kind: MailKind;
      to: string;
      locale: Locale;
      params: Record<string, string>;
      organizationId?: string | null;
      userId?: string | null;
    },
  ): Promise<string> {
    const mail: OutgoingMail = {
      id: randomUUID(),
      kind: message.kind,
      to: message.to,
      ...composeMail(message.kind, message.locale, message.params),
      organizationId: message.organizationId ?? null,
      userId: message.userId ?? null,
    };
    await this.jobs.send(MAIL_SEND_JOB, mail, { trx, id: mail.id });
    return mail.id;
  }
}
