/*
 * The delivery log and the actions on it (organization administrators): the attempts of one endpoint, newest first
 * with paging; a replay of a delivery (same payload and webhook-id, one attempt); a test event (one attempt).
 */
import { randomUUID } from 'node:crypto';
import { AppError, perUser, type PluginRouter } from '../../core/plugins/index.ts';
import type { Ctx } from './config.ts';
import { createDelivery, type DeliveryRow, deliveryResource, payloadOf, queueAttempt } from './deliveries.ts';
import { endpointOf } from './endpoint-model.ts';

const ADMIN = { permission: 'organization:manage' } as const;
const SENDS = { ...ADMIN, rateLimit: [perUser('webhookSendsPerUser')] };

export function deliveryRoutes(router: PluginRouter, ctx: Ctx): void {
  router.operation('listWebhookDeliveryAttempts', ADMIN, async ({ principal, params, query }) => {
    const endpoint = await endpointOf(ctx, principal.organizationId, params.endpointId);
    const number = query['page[number]'] ?? 1;
    const size = Math.min(query['page[size]'] ?? 20, 100);
    const base = ctx.db('webhook_attempts as a').where('a.endpoint_id', endpoint.id);
    const [counted] = await base.clone().count({ total: '*' });
    const total = Number(counted?.total ?? 0);
    const rows = await base
      .clone()
      .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
      .orderBy([
        { column: 'a.attempted_at', order: 'desc' },
        { column: 'a.attempt', order: 'desc' },
      ])
      .limit(size)
      .offset((number - 1) * size)
      .select('a.*', 'd.event_id', 'd.event_type', 'd.status as delivery_status');
    return {
      body: {
        data: rows.map((row) => ({
          type: 'WebhookDeliveryAttempt' as const,
          id: row.id as string,
          attributes: {
            deliveryId: row.delivery_id,
            eventId: row.event_id,
            eventType: row.event_type,
            attempt: row.attempt,
            trigger: row.trigger,
            outcome: row.outcome,
            statusCode: row.status_code,
            durationMs: row.duration_ms,
            attemptedAt: new Date(row.attempted_at).toISOString(),
            deliveryStatus: row.delivery_status,
          },
        })),
        meta: { total, page: { number, size } },
      },
    };
  });

  router.operation('replayWebhookDelivery', SENDS, async ({ principal, params }) => {
    const delivery = (await ctx
      .db('webhook_deliveries')
      .where({ id: params.deliveryId, organization_id: principal.organizationId })
      .first()) as DeliveryRow | undefined;
    if (!delivery) throw new AppError('NOT_FOUND');
    const endpoint = await endpointOf(ctx, principal.organizationId, delivery.endpoint_id);
    if (!endpoint.enabled) throw new AppError('WEBHOOK_ENDPOINT_DISABLED');
    await ctx.db.transaction((trx) => queueAttempt(ctx, trx, delivery.id, 'replay'));
    return { status: 202, body: { data: deliveryResource(delivery) } };
  });

  router.operation('sendWebhookTest', SENDS, async ({ principal, params }) => {
    const endpoint = await endpointOf(ctx, principal.organizationId, params.endpointId);
    if (!endpoint.enabled) throw new AppError('WEBHOOK_ENDPOINT_DISABLED');
    const eventId = randomUUID();
    const payload = payloadOf({
      id: eventId,
      type: 'webhook.test' as never,
      occurredAt: ctx.clock.now().toISOString(),
      organizationId: principal.organizationId,
      data: { endpointId: endpoint.id },
    });
    const delivery = await ctx.db.transaction((trx) =>
      createDelivery(
        ctx,
        trx,
        {
          organizationId: principal.organizationId,
          endpointId: endpoint.id,
          eventId,
          eventType: 'webhook.test',
          payload,
        },
        'test',
      ),
    );
    return { status: 202, body: { data: deliveryResource(delivery!) } };
  });
}
