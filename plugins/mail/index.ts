import path from 'node:path';
import { MAIL_SEND_JOB, type OutgoingMail } from '../../core/mail/mailer.ts';
import type { OutgoingMessageJob } from '../../core/mail/outgoing.ts';
import { createHash, timingSafeEqual } from 'node:crypto';
import { parseBounceReport } from '../../core/mail/bounces.ts';
import { AppError, definePlugin, perIp } from '../../core/plugins/index.ts';
import { type MailTransport, outboxTransport, smtpTransport } from './transport.ts';

export interface MailConfig {
  /** SMTP server URL; null keeps mail in the local outbox. */
  smtpUrl: string | null;
  outboxDir: string;
  from: string;
  retryLimit: number;
  retryDelaySeconds: number;
  /**
   * The shared secret a bounce processor presents to POST /mail/bounces (`Authorization: Bearer <secret>`);
   * null switches the operation off (every call 401). KEIYAKU_PLUGIN_MAIL_BOUNCE_SECRET, at least 24 characters.
   */
  bounceSecret?: string | null;
}

// One transport per running service (tests run several in one process), keyed by the plugin's context.
const transports = new WeakMap<object, MailTransport>();

/**
 * Delivers the mail core queues (`mail.send` jobs): through SMTP when SMTP_URL is set, otherwise into the local
 * outbox. A job carries the mail's id only: the mail is rendered when it is sent, and its secret parameters are
 * wiped once it is. Delivery is idempotent by mail id and retried with back-off, so nothing is lost while SMTP is
 * down.
 */
export const mailPlugin = definePlugin<MailConfig>({
  name: 'mail',
  migrations: new URL('./migrations/', import.meta.url),
  config: {
    schema: {
      type: 'object',
      required: ['outboxDir', 'from'],
      properties: {
        smtpUrl: { type: ['string', 'null'], pattern: '^smtps?://' },
        outboxDir: { type: 'string', minLength: 1 },
        from: { type: 'string', minLength: 3 },
        retryLimit: { type: 'integer', minimum: 0, maximum: 100, default: 12 },
        retryDelaySeconds: { type: 'integer', minimum: 1, maximum: 3600, default: 15 },
        bounceSecret: { type: ['string', 'null'], minLength: 24 },
      },
    },
    read: (config, slice) => ({
      smtpUrl: config.smtpUrl,
      outboxDir: slice.OUTBOX_DIR ?? path.join(config.dataDir, 'outbox'),
      from: slice.FROM ?? config.mailFrom,
      retryLimit: slice.RETRY_LIMIT,
      retryDelaySeconds: slice.RETRY_DELAY_SECONDS,
      bounceSecret: slice.BOUNCE_SECRET || null,
    }),
  },

  async start(ctx) {
    const transport = ctx.config.smtpUrl ? smtpTransport(ctx.config.smtpUrl) : outboxTransport(ctx.config.outboxDir);
    transports.set(ctx, transport);
    ctx.log.info({ transport: transport.kind }, 'mail transport ready');
  },

  async stop(ctx) {
    transports.get(ctx)?.close();
    transports.delete(ctx);
  },

  jobs: {
    [MAIL_SEND_JOB]: {
      policy: (config) => ({
        retryLimit: config.retryLimit,
        retryDelaySeconds: config.retryDelaySeconds,
        retryBackoff: true,
      }),
      async handler(job, ctx) {
        // Jobs queued before messages were stored apart (outgoing_messages) carry the rendered mail itself.
        const data = job.data as OutgoingMessageJob | OutgoingMail;
        const id = 'messageId' in data ? data.messageId : data.id;
        if (await ctx.db('mail_deliveries').where({ id }).first('id')) {
          await ctx.mail.markSent(id); // delivered before a crash: make sure its secrets are gone all the same
          return;
        }
        const mail = 'messageId' in data ? await ctx.mail.prepareMail(id) : data;
        if (!mail) {
          ctx.log.warn({ mailId: id }, 'queued mail not found or already sent; nothing to deliver');
          return;
        }
        const transport = transports.get(ctx);
        if (!transport) throw new Error('mail transport not started');
        let messageId: string;
        try {
          messageId = await transport.deliver(mail, ctx.config.from);
        } catch (error) {
          const refusal = permanentRecipientRefusal(error, mail.to);
          if (refusal === null) throw error; // SMTP down or a temporary refusal: the job retries
          // A permanent refusal of the recipient (5xx at RCPT): the address is blocked and the mail closed (its
          // secrets wiped); retrying would only be refused again.
          await ctx.db.transaction(async (trx) => {
            await ctx.mail.blockAddress(mail.to, { via: 'smtp', status: String(refusal), mailId: mail.id }, trx);
            await ctx.mail.markSent(mail.id, trx);
          });
          ctx.log.warn(
            { mailId: mail.id, kind: mail.kind, responseCode: refusal },
            'recipient refused; address blocked',
          );
          return;
        }
        await ctx.db.transaction(async (trx) => {
          await trx('mail_deliveries')
            .insert({
              id: mail.id,
              organization_id: mail.organizationId,
              user_id: mail.userId,
              kind: mail.kind,
              to_address: mail.to,
              subject: mail.subjectOnRecord ?? mail.subject,
              transport: transport.kind,
              message_id: messageId,
              delivered_at: ctx.clock.now(),
            })
            .onConflict('id')
            .ignore();
          await ctx.mail.markSent(mail.id, trx);
        });
        ctx.log.info({ mailId: mail.id, kind: mail.kind, transport: transport.kind }, 'mail delivered');
      },
    },
  },

  hooks: {
    async 'organization.signed_up'(event, ctx) {
      const owner = await ctx
        .db('users as u')
        .join('organizations as o', 'o.id', 'u.organization_id')
        .where('u.id', event.ownerUserId)
        .first('u.name', 'u.email', 'u.locale', 'u.login_id', 'o.name as organization');
      if (!owner) return;
      await ctx.db.transaction((trx) =>
        ctx.mail.send(trx, {
          kind: 'welcome',
          to: owner.email,
          locale: owner.locale,
          params: {
            name: owner.name,
            organization: owner.organization,
            loginId: owner.login_id,
            link: `${ctx.publicUrl}/login`,
          },
          organizationId: event.organizationId,
          userId: event.ownerUserId,
        }),
      );
    },
  },

  routes(router, ctx) {
    router.operation(
      'ingestMailBounce',
      { rateLimit: [perIp('mailBounceSecretPerIp'), perIp('mailBouncesPerIp')] },
      async ({ body, header }) => {
        if (!secretMatches(ctx.config.bounceSecret, header('authorization'))) throw new AppError('UNAUTHENTICATED');
        const statuses = await parseBounceReport(body.data.attributes.report);
        const blocked: string[] = [];
        for (const status of statuses.filter((s) => s.permanent)) {
          const users = await ctx.mail.blockAddress(status.recipient, { via: 'dsn', status: status.status });
          if (users.length > 0) blocked.push(status.recipient);
        }
        return {
          body: {
            data: {
              type: 'MailBounce',
              attributes: {
                recipients: statuses.map(({ recipient, status, action, permanent }) => ({
                  address: recipient,
                  status,
                  action,
                  permanent,
                  blocked: blocked.includes(recipient),
                })),
              },
            },
          },
        };
      },
    );

    router.operation('listMailDeliveries', { permission: 'mail:read' }, async ({ principal, query }) => {
      const size = query['page[size]'] ?? 20;
      const number = query['page[number]'] ?? 1;
      const scope = ctx.db('mail_deliveries').where({ organization_id: principal.organizationId });
      const [{ total }] = (await scope.clone().count<{ total: number }[]>({ total: '*' })) as [{ total: number }];
      const rows = await scope
        .clone()
        .orderBy([
          { column: 'delivered_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(size)
        .offset((number - 1) * size);
      return {
        body: {
          data: rows.map((row) => ({
            type: 'MailDelivery',
            id: row.id,
            attributes: {
              to: row.to_address,
              subject: row.subject,
              kind: row.kind,
              transport: row.transport,
              deliveredAt: row.delivered_at.toISOString(),
            },
          })),
          meta: { total: Number(total) },
        },
      };
    });
  },
});

/**
 * The SMTP response code when the server refused the recipient permanently (5xx at RCPT TO: nodemailer's
 * EENVELOPE error naming the address as rejected), else null (SMTP down, a 4xx, or a refusal of something else).
 */
export function permanentRecipientRefusal(error: unknown, to: string): number | null {
  const e = error as { responseCode?: unknown; command?: unknown; rejected?: unknown } | null;
  const code = typeof e?.responseCode === 'number' ? e.responseCode : null;
  if (code === null || code < 500 || code > 599) return null;
  const rejected = Array.isArray(e?.rejected) ? (e.rejected as unknown[]).map((a) => String(a).toLowerCase()) : [];
  const atRcpt = typeof e?.command === 'string' && /^RCPT/i.test(e.command);
  return rejected.includes(to.toLowerCase()) || atRcpt ? code : null;
}

/** Compares the presented bearer secret with the configured one in constant time (digests of equal length). */
function secretMatches(secret: string | null | undefined, authorization: string | undefined): boolean {
  if (!secret) return false;
  const presented = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(secret)) && presented.length > 0;
}
