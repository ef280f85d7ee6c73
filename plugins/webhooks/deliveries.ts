/*
 * Deliveries: an integration event becomes one delivery per enabled endpoint of the organization that subscribed
 * to its type, queued with a job in one transaction. The job makes one attempt and records it; after a failed
 * scheduled attempt it queues the next one after the configured wait (config.ts), until the schedule is spent.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { IntegrationEvent } from '../../core/plugins/index.ts';
import type { Ctx } from './config.ts';

export const DELIVER_JOB = 'webhooks.deliver';

export type Trigger = 'scheduled' | 'replay' | 'test';

export interface DeliverJob {
  deliveryId: string;
  trigger: Trigger;
}

/** A webhook_deliveries row. */
export interface DeliveryRow {
  id: string;
  organization_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  scheduled_attempts: number;
  next_attempt_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The body a receiver gets: the event as core told it, without the plan. */
export const payloadOf = (event: IntegrationEvent & { organizationId: string }) =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    occurredAt: event.occurredAt,
    organizationId: event.organizationId,
    data: event.data,
  });

/** Queues the job of one attempt (after `delaySeconds`, measured by the database's clock). */
export async function queueAttempt(
  ctx: Ctx,
  trx: Knex.Transaction,
  deliveryId: string,
  trigger: Trigger,
  delaySeconds = 0,
): Promise<void> {
  await ctx.jobs.send<DeliverJob>(
    DELIVER_JOB,
    { deliveryId, trigger },
    { trx, ...(delaySeconds > 0 ? { startAfter: new Date(Date.now() + delaySeconds * 1000) } : {}) },
  );
}

/** Creates a delivery for one endpoint (once per event: a second telling of the same event adds nothing). */
export async function createDelivery(
  ctx: Ctx,
  trx: Knex.Transaction,
  input: { organizationId: string; endpointId: string; eventId: string; eventType: string; payload: string },
  trigger: Trigger,
): Promise<DeliveryRow | null> {
  const now = ctx.clock.now();
  const [row] = (await trx('webhook_deliveries')
    .insert({
      id: randomUUID(),
      organization_id: input.organizationId,
      endpoint_id: input.endpointId,
      event_id: input.eventId,
      event_type: input.eventType,
      payload: input.payload,
      status: 'pending',
      next_attempt_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict(['endpoint_id', 'event_id'])
    .ignore()
    .returning('*')) as DeliveryRow[];
  if (!row) return null;
  await queueAttempt(ctx, trx, row.id, trigger);
  return row;
}

/** The hook: one delivery per enabled endpoint subscribed to the event's type. */
export async function deliverEvent(ctx: Ctx, event: IntegrationEvent & { organizationId: string }): Promise<void> {
  const endpoints: { id: string }[] = await ctx
    .db('webhook_endpoints')
    .where({ organization_id: event.organizationId, enabled: true })
    .whereRaw('event_types @> ?::jsonb', [JSON.stringify([event.type])])
    .select('id');
  if (endpoints.length === 0) return;
  const payload = payloadOf(event);
  await ctx.db.transaction(async (trx) => {
    for (const endpoint of endpoints) {
      await createDelivery(
        ctx,
        trx,
        {
          organizationId: event.organizationId,
          endpointId: endpoint.id,
          eventId: event.id,
          eventType: event.type,
          payload,
        },
        'scheduled',
      );
    }
  });
}

export function deliveryResource(row: DeliveryRow) {
  return {
    type: 'WebhookDelivery' as const,
    id: row.id,
    attributes: {
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      eventType: row.event_type,
      status: row.status,
      attempts: row.attempts,
      nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at).toISOString() : null,
      createdAt: new Date(row.created_at).toISOString(),
    },
  };
}
