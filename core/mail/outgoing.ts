/*
 * Mail and SMS waiting for delivery (table outgoing_messages). A job carries only the message's id: the message
 * is rendered when it is sent. The parameters a kind marks as secret (a temporary password, a link holding a
 * token, a signing code) are sealed under the master key apart from the others, and wiped once the message is
 * sent, so neither the job table nor this one keeps a usable credential.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../clock.ts';
import { createSecrets, type Secrets } from '../crypto/secrets.ts';
import type { Locale } from '../http/errors.ts';

export type MessageChannel = 'mail' | 'sms';

/** What a mail.send or sms.send job carries. */
export interface OutgoingMessageJob {
  messageId: string;
}

/** A message to store: its parameters with the names of those that are secret. */
export interface NewMessage {
  channel: MessageChannel;
  kind: string;
  to: string;
  locale: Locale;
  params: Record<string, string>;
  secretNames: readonly string[];
  organizationId: string | null;
  userId: string | null;
}

/** A stored message with every parameter back (secret ones opened), ready to render. */
export interface StoredMessage {
  id: string;
  channel: MessageChannel;
  kind: string;
  to: string;
  locale: Locale;
  params: Record<string, string>;
  organizationId: string | null;
  userId: string | null;
  sentAt: Date | null;
}

interface MessageRow {
  id: string;
  channel: MessageChannel;
  kind: string;
  to_address: string;
  locale: Locale;
  params: Record<string, string>;
  secret_params: Buffer | null;
  organization_id: string | null;
  user_id: string | null;
  sent_at: Date | null;
}

/** The outgoing_messages table, with secret parameters sealed under the master key. */
export class OutgoingMessages {
  private readonly secrets: Secrets;

  constructor(
    /** The database the messages live in (workers read through it). */
    readonly db: Knex,
    masterKey: Uint8Array,
    private readonly clock: Clock,
  ) {
    this.secrets = createSecrets(masterKey, 'outgoing-message-secrets');
  }

  /** Stores a message in the caller's transaction and returns its id (also its job's id). */
  async insert(trx: Knex.Transaction, message: NewMessage): Promise<string> {
    const open: Record<string, string> = {};
    const secret: Record<string, string> = {};
    for (const [name, value] of Object.entries(message.params)) {
      if (message.secretNames.includes(name)) secret[name] = value;
      else open[name] = value;
    }
    const id = randomUUID();
    await trx('outgoing_messages').insert({
      id,
      channel: message.channel,
      kind: message.kind,
      to_address: message.to,
      locale: message.locale,
      params: JSON.stringify(open),
      secret_params:
        Object.keys(secret).length > 0
          ? Buffer.from(this.secrets.seal(Buffer.from(JSON.stringify(secret), 'utf8')))
          : null,
      organization_id: message.organizationId,
      user_id: message.userId,
      created_at: this.clock.now(),
    });
    return id;
  }

  /** The message with its secret parameters opened; null when there is no such message. */
  async load(id: string, db: Knex = this.db): Promise<StoredMessage | null> {
    const row = (await db('outgoing_messages').where({ id }).first()) as MessageRow | undefined;
    if (!row) return null;
    const secret = row.secret_params
      ? (JSON.parse(Buffer.from(this.secrets.open(row.secret_params)).toString('utf8')) as Record<string, string>)
      : {};
    return {
      id: row.id,
      channel: row.channel,
      kind: row.kind,
      to: row.to_address,
      locale: row.locale,
      params: { ...row.params, ...secret },
      organizationId: row.organization_id,
      userId: row.user_id,
      sentAt: row.sent_at,
    };
  }

  /** Records the message as sent and wipes its secret parameters (idempotent: the first sending time stays). */
  async markSent(id: string, db: Knex = this.db): Promise<void> {
    await db('outgoing_messages')
      .where({ id })
      .update({ secret_params: null, sent_at: db.raw('coalesce(sent_at, ?)', [this.clock.now()]) });
  }
}
