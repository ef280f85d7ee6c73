import type { Knex } from 'knex';
import type { Locale } from '../http/errors.ts';
import type { JobQueue } from '../jobs/index.ts';
import type { OperationLog } from '../modules/logs/operation-log.ts';
import {
  composeSms,
  isSmsKind,
  SMS_KIND_DEFINITIONS,
  SMS_SEND_JOB,
  type SmsKind,
  type SmsMessage,
} from '../signing/sms.ts';
import { composeMail, isMailKind, MAIL_KIND_DEFINITIONS, type MailKind } from './messages.ts';
import type { OutgoingMessageJob, OutgoingMessages } from './outgoing.ts';

/** The job that delivers one mail; the mail plugin handles it. */
export const MAIL_SEND_JOB = 'mail.send';

/** One mail as rendered for delivery: everything the transport needs, nothing it has to look up. */
export interface OutgoingMail {
  id: string;
  kind: MailKind;
  to: string;
  subject: string;
  text: string;
  organizationId: string | null;
  userId: string | null;
  /**
   * The subject as the delivery record keeps it: an organization's template may put a secret placeholder in the
   * subject, and the record must not keep the secret. Absent on mail queued by an earlier version.
   */
  subjectOnRecord?: string;
}

/** What a caller asks to send: a kind, a recipient and the kind's placeholder values. */
export interface MessageRequest<K extends string> {
  kind: K;
  to: string;
  locale: Locale;
  params: Record<string, string>;
  organizationId?: string | null;
  userId?: string | null;
}

/**
 * Queues mail and SMS as durable jobs in the caller's transaction: a message exists exactly when the change that
 * caused it committed, and waits in the queue (retried) while no transport can take it. A job carries the message's
 * id only; the delivering plugin renders the message (prepareMail, prepareSms) and then calls markSent, which wipes
 * its secret parameters.
 */
export class Mailer {
  constructor(
    private readonly jobs: JobQueue,
    private readonly messages: OutgoingMessages,
    private readonly oplog?: OperationLog,
  ) {}

  /** Queues a mail; returns its id, or null when the address is blocked after a bounce. */
  async send(trx: Knex.Transaction, message: MessageRequest<MailKind>): Promise<string | null> {
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
    return this.queue(trx, 'mail', message, MAIL_KIND_DEFINITIONS[message.kind].secret);
  }

  /** Queues an SMS to a mobile number (see mobileNumber); returns its id. */
  async sendSms(trx: Knex.Transaction, message: MessageRequest<SmsKind>): Promise<string> {
    return this.queue(trx, 'sms', message, SMS_KIND_DEFINITIONS[message.kind].secret);
  }

  /**
   * The queued mail rendered now, with the organization's own template of that kind and language as it is when the
   * mail is sent (one saved in the transaction that queued the mail included), the built-in one otherwise. Mail of
   * an organization also gets `organizationName` unless the caller passed it. Null when the message is unknown or
   * was sent already.
   */
  async prepareMail(id: string): Promise<OutgoingMail | null> {
    const message = await this.messages.load(id);
    if (!message || message.sentAt || message.channel !== 'mail' || !isMailKind(message.kind)) return null;
    const { kind, locale, organizationId } = message;
    const params = { ...message.params };
    let template: { subject: string; body: string } | undefined;
    if (organizationId) {
      const knex = this.messages.db;
      template = await knex('mail_templates')
        .where({ organization_id: organizationId, kind, locale })
        .first('subject', 'body');
      if (params.organizationName === undefined && params.organization === undefined) {
        const organization = await knex('organizations').where({ id: organizationId }).first('name');
        if (organization) params.organizationName = organization.name as string;
      }
    }
    const masked = { ...params };
    for (const name of MAIL_KIND_DEFINITIONS[kind].secret) if (masked[name] !== undefined) masked[name] = '***';
    return {
      id,
      kind,
      to: message.to,
      ...composeMail(kind, locale, params, template),
      organizationId,
      userId: message.userId,
      subjectOnRecord: composeMail(kind, locale, masked, template).subject,
    };
  }

  /** The queued SMS rendered now; null when the message is unknown or was sent already. */
  async prepareSms(id: string): Promise<SmsMessage | null> {
    const message = await this.messages.load(id);
    if (!message || message.sentAt || message.channel !== 'sms' || !isSmsKind(message.kind)) return null;
    return {
      id,
      to: message.to,
      text: composeSms(message.kind, message.locale, message.params),
      organizationId: message.organizationId,
      userId: message.userId,
    };
  }

  /**
   * Blocks an address after a permanent delivery failure (an SMTP 5xx at RCPT, or a DSN with Status 5.x.x): every
   * user whose address it is gets `email_blocked_at`, and `send` skips mail to them until an administrator unblocks
   * the address (unblockUserEmail). Logged per user as `user.email_blocked`. Returns the users it newly blocked.
   */
  async blockAddress(
    address: string,
    source: { via: 'smtp' | 'dsn'; status: string; mailId?: string },
    db: Knex = this.messages.db,
  ): Promise<{ userId: string; organizationId: string }[]> {
    const run = async (trx: Knex.Transaction) => {
      const blocked = (await trx('users')
        .whereRaw('lower(email) = lower(?)', [address.trim()])
        .whereNull('email_blocked_at')
        .update({ email_blocked_at: trx.fn.now() })
        .returning(['id', 'organization_id'])) as { id: string; organization_id: string }[];
      for (const user of blocked) {
        await this.oplog?.append(trx, null, {
          action: 'user.email_blocked',
          organizationId: user.organization_id,
          targetType: 'user',
          targetId: user.id,
          details: { ...source, address },
        });
      }
      return blocked.map((u) => ({ userId: u.id, organizationId: u.organization_id }));
    };
    return db.isTransaction ? run(db as Knex.Transaction) : db.transaction(run);
  }

  /** Records a message as sent and wipes its secret parameters; pass the transaction that records the delivery. */
  markSent(id: string, trx?: Knex.Transaction): Promise<void> {
    return this.messages.markSent(id, trx);
  }

  private async queue(
    trx: Knex.Transaction,
    channel: 'mail' | 'sms',
    message: MessageRequest<string>,
    secretNames: readonly string[],
  ): Promise<string> {
    const id = await this.messages.insert(trx, {
      channel,
      kind: message.kind,
      to: message.to,
      locale: message.locale,
      params: message.params,
      secretNames,
      organizationId: message.organizationId ?? null,
      userId: message.userId ?? null,
    });
    await this.jobs.send(
      channel === 'mail' ? MAIL_SEND_JOB : SMS_SEND_JOB,
      { messageId: id } satisfies OutgoingMessageJob,
      {
        trx,
        id,
      },
    );
    return id;
  }

  private async isBlocked(trx: Knex.Transaction, userId: string, to: string): Promise<boolean> {
    const row = await trx('users').where({ id: userId }).whereNotNull('email_blocked_at').first('email');
    return Boolean(row && (row.email as string).toLowerCase() === to.toLowerCase());
  }
}
