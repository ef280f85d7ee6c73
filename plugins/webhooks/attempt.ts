/*
 * One attempt of a delivery (the job webhooks.deliver): sign with the endpoint's current secrets, send, record the
 * attempt in the delivery log, move the endpoint's failure streak, then schedule the next attempt or settle the
 * delivery. An endpoint whose attempts all failed for `disableAfterSeconds` is disabled (disable.ts).
 */
import { assertPlanFeature } from '../../core/plugins/index.ts';
import type { Ctx } from './config.ts';
import type { DeliverJob, DeliveryRow } from './deliveries.ts';
import { queueAttempt } from './deliveries.ts';
import { disableForFailures } from './disable.ts';
import type { EndpointRow } from './endpoint-model.ts';
import { type AttemptResult, sendAttempt } from './send.ts';
import { signedHeaders, signingSecrets } from './signing.ts';
import { randomUUID } from 'node:crypto';

/** Whether the organization's plan (or its options) still has webhooks. */
async function planAllowsWebhooks(ctx: Ctx, organizationId: string): Promise<boolean> {
  const organization = await ctx.db('organizations').where({ id: organizationId }).first('plan', 'options');
  if (!organization) return false;
  try {
    assertPlanFeature({ plan: organization.plan, options: organization.options ?? [] }, 'webhooks');
    return true;
  } catch {
    return false;
  }
}

export async function runAttempt(ctx: Ctx, job: DeliverJob): Promise<void> {
  const delivery = (await ctx.db('webhook_deliveries').where({ id: job.deliveryId }).first()) as
    DeliveryRow | undefined;
  if (!delivery) return; // its endpoint was deleted
  // A scheduled attempt of a delivery a replay already got through, or already settled: nothing to do.
  if (job.trigger === 'scheduled' && delivery.status !== 'pending') return;
  const endpoint = (await ctx.db('webhook_endpoints').where({ id: delivery.endpoint_id }).first()) as
    EndpointRow | undefined;
  if (!endpoint) return;
  if (!endpoint.enabled || !(await planAllowsWebhooks(ctx, endpoint.organization_id))) {
    // Disabled (or the plan lost webhooks) meanwhile: the rest of the schedule is dropped; a replay may follow.
    await ctx
      .db('webhook_deliveries')
      .where({ id: delivery.id, status: 'pending' })
      .update({ status: 'failed', next_attempt_at: null, updated_at: ctx.clock.now() });
    return;
  }
  const [{ attempts }] = await ctx
    .db('webhook_deliveries')
    .where({ id: delivery.id })
    .increment('attempts', 1)
    .returning('attempts');
  const headers = signedHeaders(delivery.event_id, delivery.payload, signingSecrets(ctx, endpoint));
  const result = await sendAttempt(endpoint.url, headers, delivery.payload, {
    allowPrivateNetworks: ctx.config.allowPrivateNetworks,
    allowedCidrs: ctx.config.allowedCidrs,
    timeoutMs: ctx.config.timeoutSeconds * 1000,
    maxResponseBytes: ctx.config.maxResponseBytes,
  });
  await recordAttempt(ctx, delivery, endpoint, job.trigger, attempts as number, result);
}

async function recordAttempt(
  ctx: Ctx,
  delivery: DeliveryRow,
  endpoint: EndpointRow,
  trigger: DeliverJob['trigger'],
  attempt: number,
  result: AttemptResult,
): Promise<void> {
  const now = ctx.clock.now();
  const ok = result.outcome === 'success';
  const schedule = ctx.config.retryScheduleSeconds;
  const disable = await ctx.db.transaction(async (trx) => {
    await trx('webhook_attempts').insert({
      id: randomUUID(),
      organization_id: delivery.organization_id,
      endpoint_id: endpoint.id,
      delivery_id: delivery.id,
      attempt,
      trigger,
      outcome: result.outcome,
      status_code: result.statusCode,
      duration_ms: result.durationMs,
      attempted_at: now,
    });
    const current = (await trx('webhook_deliveries').where({ id: delivery.id }).forUpdate().first()) as DeliveryRow;
    const update: Record<string, unknown> = { updated_at: now };
    if (ok) {
      Object.assign(update, { status: 'succeeded', next_attempt_at: null });
    } else if (trigger === 'scheduled') {
      const scheduled = current.scheduled_attempts + 1;
      update.scheduled_attempts = scheduled;
      const wait = schedule[scheduled - 1];
      if (wait !== undefined && current.status === 'pending') {
        update.next_attempt_at = new Date(now.getTime() + wait * 1000);
        await queueAttempt(ctx, trx, delivery.id, 'scheduled', wait);
      } else if (current.status === 'pending') {
        Object.assign(update, { status: 'failed', next_attempt_at: null });
      }
    } else if (trigger === 'test') {
      // A test event is tried once: its failure is final (a replay may try it again).
      Object.assign(update, { status: 'failed', next_attempt_at: null });
    }
    if (ok || trigger !== 'replay') await trx('webhook_deliveries').where({ id: delivery.id }).update(update);
    // The endpoint's streak: a success ends it, a failure starts it (or goes on with it). FOR NO KEY UPDATE: the
    // attempt row inserted above holds KEY SHARE on the endpoint (its foreign key), and two attempts of one endpoint
    // that each held that and then asked FOR UPDATE deadlocked (66 times in one suite run's PostgreSQL log); NO KEY
    // UPDATE does not conflict with KEY SHARE, so the second attempt waits for the first instead.
    const row = (await trx('webhook_endpoints').where({ id: endpoint.id }).forNoKeyUpdate().first()) as EndpointRow;
    if (ok) {
      await trx('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: null, last_success_at: now });
      return false;
    }
    const since = row.failing_since ? new Date(row.failing_since) : now;
    if (!row.failing_since) await trx('webhook_endpoints').where({ id: endpoint.id }).update({ failing_since: now });
    return row.enabled && now.getTime() - since.getTime() >= ctx.config.disableAfterSeconds * 1000;
  });
  if (disable) await disableForFailures(ctx, endpoint.id);
}
