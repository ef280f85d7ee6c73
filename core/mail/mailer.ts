import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Locale } from '../http/errors.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { OperationLog } from '../modules/logs/operation-log.ts';
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
  constructor(
    private readonly jobs: JobQueue,
    private readonly oplog?: OperationLog,
  ) {}

  /**
   * Renders the mail with the organization's own template of that kind and language when it has one (read in the
   * caller's transaction, so a template saved in the same transaction applies), the built-in one otherwise.
   * Mail of an organization also gets `organizationName` unless the caller passed it.
   */
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
  ): Promise<string | null> {
    const organizationId = message.organizationId ?? null;
    if (message.userId && (await this.isBlocked(trx, message.userId, message.to))) {
      // The address bounced before: nothing goes to it until an administrator unblocks it (unblockUserEmail).
      await this.oplog?.append(trx, null, {
        action: 'mail.skipped_blocked_address',
        organizationId,
        targetType: 'user',
        targetId: message.userId,
        details: { kind: message.kind },
      });
      return null;
    }
    const params = { ...message.params };
    let template: { subject: string; body: string } | undefined;
    if (organizationId) {
      template = await trx('mail_templates')
        .where({ organization_id: organizationId, kind: message.kind, locale: message.locale })
        .first('subject', 'body');
      if (params.organizationName === undefined && params.organization === undefined) {
        const organization = await trx('organizations').where({ id: organizationId }).first('name');
        if (organization) params.organizationName = organization.name as string;
      }
    }
    const mail: OutgoingMail = {
      id: randomUUID(),
      kind: message.kind,
      to: message.to,
      ...composeMail(message.kind, message.locale, params, template),
      organizationId,
      userId: message.userId ?? null,
    };
    await this.jobs.send(MAIL_SEND_JOB, mail, { trx, id: mail.id });
    return mail.id;
  }

  private async isBlocked(trx: Knex.Transaction, userId: string, to: string): Promise<boolean> {
    const row = await trx('users').where({ id: userId }).whereNotNull('email_blocked_at').first('email');
    return Boolean(row && (row.email as string).toLowerCase() === to.toLowerCase());
  }
}
