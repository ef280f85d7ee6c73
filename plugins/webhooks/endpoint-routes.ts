/*
 * Endpoint management (organization administrators): list, read, create (the secret answered once), update
 * (URL, description, event types, enable / disable with lockVersion), delete, rotate the secret.
 */
import { randomUUID } from 'node:crypto';
import {
  AppError,
  INTEGRATION_EVENT_TYPES,
  perUser,
  type PluginRouter,
  type RequestContext,
} from '../../core/plugins/index.ts';
import type { Ctx } from './config.ts';
import { assertDeliverableUrl, endpointOf, endpointResource, type EndpointRow } from './endpoint-model.ts';
import { newSecret, sealSecret } from './signing.ts';

const ADMIN = { permission: 'organization:manage' } as const;

function log(
  ctx: Ctx,
  trx: Parameters<Ctx['oplog']['append']>[0],
  req: RequestContext | null,
  who: { organizationId: string; userId: string },
  action: string,
  endpointId: string,
  details: Record<string, unknown>,
) {
  return ctx.oplog.append(trx, req, {
    action,
    organizationId: who.organizationId,
    actorUserId: who.userId,
    targetType: 'webhook_endpoint',
    targetId: endpointId,
    details,
  });
}

export function endpointRoutes(router: PluginRouter, ctx: Ctx): void {
  router.operation('listWebhookEventTypes', ADMIN, async () => ({
    body: { data: INTEGRATION_EVENT_TYPES.map((id) => ({ type: 'WebhookEventType' as const, id })) },
  }));

  router.operation('listWebhookEndpoints', ADMIN, async ({ principal }) => {
    const rows: EndpointRow[] = await ctx
      .db('webhook_endpoints')
      .where({ organization_id: principal.organizationId })
      .orderBy([{ column: 'created_at' }, { column: 'id' }]);
    return { body: { data: rows.map(endpointResource) } };
  });

  router.operation('getWebhookEndpoint', ADMIN, async ({ principal, params }) => ({
    body: { data: endpointResource(await endpointOf(ctx, principal.organizationId, params.endpointId)) },
  }));

  // Answers with a secret: never kept for an Idempotency-Key replay.
  router.operation('createWebhookEndpoint', { ...ADMIN, idempotency: false }, async ({ principal, body, req }) => {
    const attributes = body.data.attributes;
    const url = await assertDeliverableUrl(ctx.config, attributes.url);
    const id = randomUUID();
    const secret = newSecret();
    const now = ctx.clock.now();
    const row = await ctx.db.transaction(async (trx) => {
      // The organization row serialises concurrent creations, so the limit holds.
      await trx('organizations').where({ id: principal.organizationId }).forUpdate().first('id');
      const [counted] = await trx('webhook_endpoints')
        .where({ organization_id: principal.organizationId })
        .count({ count: '*' });
      if (Number(counted?.count ?? 0) >= ctx.config.maxEndpoints) throw new AppError('WEBHOOK_ENDPOINT_LIMIT');
      const enabled = attributes.enabled ?? true;
      const [inserted] = await trx('webhook_endpoints')
        .insert({
          id,
          organization_id: principal.organizationId,
          url,
          description: attributes.description?.trim() ?? '',
          event_types: JSON.stringify(attributes.eventTypes),
          enabled,
          disabled_reason: enabled ? null : 'manual',
          disabled_at: enabled ? null : now,
          secret_sealed: sealSecret(ctx, id, secret),
          created_by: principal.userId,
          created_at: now,
          updated_at: now,
        })
        .returning('*');
      await log(ctx, trx, req, principal, 'webhook.endpoint_created', id, { url, eventTypes: attributes.eventTypes });
      return inserted as EndpointRow;
    });
    return { status: 201, body: { data: endpointResource(row), meta: { secret } } };
  });

  router.operation('updateWebhookEndpoint', ADMIN, async ({ principal, params, body, req }) => {
    const { lockVersion, ...changes } = body.data.attributes;
    const url = changes.url === undefined ? undefined : await assertDeliverableUrl(ctx.config, changes.url);
    const now = ctx.clock.now();
    const row = await ctx.db.transaction(async (trx) => {
      const current = (await trx('webhook_endpoints')
        .where({ id: params.endpointId, organization_id: principal.organizationId })
        .forUpdate()
        .first()) as EndpointRow | undefined;
      if (!current) throw new AppError('NOT_FOUND');
      if (current.lock_version !== lockVersion) throw new AppError('UPDATED_BY_ANOTHER_USER');
      const update: Record<string, unknown> = { updated_at: now, lock_version: current.lock_version + 1 };
      if (url !== undefined) update.url = url;
      if (changes.description !== undefined) update.description = changes.description.trim();
      if (changes.eventTypes !== undefined) update.event_types = JSON.stringify(changes.eventTypes);
      if (changes.enabled === true && !current.enabled) {
        // Enabled again: a fresh start, the failure streak forgotten.
        Object.assign(update, { enabled: true, disabled_reason: null, disabled_at: null, failing_since: null });
      } else if (changes.enabled === false && current.enabled) {
        Object.assign(update, { enabled: false, disabled_reason: 'manual', disabled_at: now });
      }
      const [updated] = await trx('webhook_endpoints').where({ id: current.id }).update(update).returning('*');
      const action =
        update.enabled === true
          ? 'webhook.endpoint_enabled'
          : update.enabled === false
            ? 'webhook.endpoint_disabled'
            : 'webhook.endpoint_updated';
      await log(ctx, trx, req, principal, action, current.id, {
        ...(url !== undefined ? { url } : {}),
        ...(changes.eventTypes ? { eventTypes: changes.eventTypes } : {}),
      });
      return updated as EndpointRow;
    });
    return { body: { data: endpointResource(row) } };
  });

  router.operation('deleteWebhookEndpoint', ADMIN, async ({ principal, params, req }) => {
    await ctx.db.transaction(async (trx) => {
      const deleted = await trx('webhook_endpoints')
        .where({ id: params.endpointId, organization_id: principal.organizationId })
        .delete()
        .returning('url');
      if (deleted.length === 0) throw new AppError('NOT_FOUND');
      await log(ctx, trx, req, principal, 'webhook.endpoint_deleted', params.endpointId, { url: deleted[0].url });
    });
    return { status: 204 };
  });

  router.operation(
    'rotateWebhookSecret',
    { ...ADMIN, idempotency: false, rateLimit: [perUser('webhookRotationsPerUser')] },
    async ({ principal, params, req }) => {
      const secret = newSecret();
      const now = ctx.clock.now();
      const row = await ctx.db.transaction(async (trx) => {
        const current = (await trx('webhook_endpoints')
          .where({ id: params.endpointId, organization_id: principal.organizationId })
          .forUpdate()
          .first()) as EndpointRow | undefined;
        if (!current) throw new AppError('NOT_FOUND');
        const overlapEnds = new Date(now.getTime() + ctx.config.rotationOverlapSeconds * 1000);
        const [updated] = await trx('webhook_endpoints')
          .where({ id: current.id })
          .update({
            secret_sealed: sealSecret(ctx, current.id, secret),
            previous_secret_sealed: current.secret_sealed,
            previous_secret_expires_at: overlapEnds,
            updated_at: now,
            lock_version: current.lock_version + 1,
          })
          .returning('*');
        await log(ctx, trx, req, principal, 'webhook.secret_rotated', current.id, {
          previousSecretExpiresAt: overlapEnds.toISOString(),
        });
        return updated as EndpointRow;
      });
      return { body: { data: endpointResource(row), meta: { secret } } };
    },
  );
}
