/*
 * Automatic disabling: an endpoint whose every attempt failed for `disableAfterSeconds` (24 hours by default, a
 * failing attempt being what notices it) is disabled with reason `automatic`, its pending deliveries stop, the
 * operation log records it, and the organization's administrators (and owner) get the `webhook-disabled` mail,
 * once: whoever disables it first tells them. An administrator enables it again by updating it.
 */
import type { Ctx } from './config.ts';

export async function disableForFailures(ctx: Ctx, endpointId: string): Promise<void> {
  const now = ctx.clock.now();
  await ctx.db.transaction(async (trx) => {
    const changed = (await trx('webhook_endpoints')
      .where({ id: endpointId, enabled: true })
      .update({
        enabled: false,
        disabled_reason: 'automatic',
        disabled_at: now,
        updated_at: now,
        lock_version: trx.raw('lock_version + 1'),
      })
      .returning(['organization_id', 'url', 'failing_since'])) as {
      organization_id: string;
      url: string;
      failing_since: Date | null;
    }[];
    const endpoint = changed[0];
    if (!endpoint) return;
    const organizationId = endpoint.organization_id;
    await trx('webhook_deliveries')
      .where({ endpoint_id: endpointId, status: 'pending' })
      .update({ status: 'failed', next_attempt_at: null, updated_at: now });
    const organization = await trx('organizations').where({ id: organizationId }).first('name');
    const admins: { id: string; name: string; email: string | null; locale: 'ja' | 'en' }[] = await trx('users')
      .where({ organization_id: organizationId })
      .andWhere((q) => q.where('is_admin', true).orWhere('is_owner', true))
      .whereNot({ status: 'deleted' })
      .select('id', 'name', 'email', 'locale');
    for (const admin of admins) {
      if (!admin.email) continue;
      await ctx.mail.send(trx, {
        kind: 'webhook-disabled',
        to: admin.email,
        locale: admin.locale,
        params: {
          userName: admin.name,
          organizationName: organization?.name ?? '',
          endpointUrl: endpoint.url,
          link: `${ctx.publicUrl}/organizations/settings/webhooks`,
        },
        organizationId,
        userId: admin.id,
      });
    }
    await ctx.oplog.append(trx, null, {
      action: 'webhook.endpoint_auto_disabled',
      organizationId,
      targetType: 'webhook_endpoint',
      targetId: endpointId,
      details: {
        url: endpoint.url,
        failingSince: endpoint.failing_since ? new Date(endpoint.failing_since).toISOString() : null,
        notifiedAdministrators: admins.filter((a) => a.email).length,
      },
    });
  });
  ctx.log.warn({ endpointId }, 'webhooks: endpoint disabled after sustained failure');
}
