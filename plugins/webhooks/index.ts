import { definePlugin } from '../../core/plugins/index.ts';
import { runAttempt } from './attempt.ts';
import { webhooksConfig, type WebhooksConfig } from './config.ts';
import { DELIVER_JOB, type DeliverJob, deliverEvent } from './deliveries.ts';
import { deliveryRoutes } from './delivery-routes.ts';
import { endpointRoutes } from './endpoint-routes.ts';

export type { WebhooksConfig } from './config.ts';

/**
 * Webhooks (plan feature `webhooks`): an organization's administrators register https endpoints and choose event
 * types; every integration event core tells (hook 'integration.event') is POSTed to them signed as Standard
 * Webhooks, retried on a schedule over about a day, logged per attempt, replayable, and an endpoint failing for a
 * day is disabled with a mail to the administrators. Outbound requests go only to public addresses (address-guard.ts).
 */
export const webhooksPlugin = definePlugin<WebhooksConfig>({
  name: 'webhooks',
  feature: 'webhooks',
  migrations: new URL('./migrations/', import.meta.url),
  config: webhooksConfig,

  async start(ctx) {
    if (ctx.config.allowPrivateNetworks || ctx.config.allowedCidrs.length > 0) {
      ctx.log.warn(
        { allowPrivateNetworks: ctx.config.allowPrivateNetworks, allowedCidrs: ctx.config.allowedCidrs },
        'webhooks: deliveries to non-public addresses are allowed by configuration',
      );
    }
  },

  routes(router, ctx) {
    endpointRoutes(router, ctx);
    deliveryRoutes(router, ctx);
  },

  jobs: {
    [DELIVER_JOB]: {
      handler: (job, ctx) => runAttempt(ctx, job.data as DeliverJob),
      // The schedule of attempts is the plugin's own (attempt.ts); the queue's retries only cover a crash or a
      // database error around an attempt.
      policy: () => ({ retryLimit: 3, retryDelaySeconds: 30, retryBackoff: true, maxRunSeconds: 120 }),
    },
  },

  hooks: {
    async 'integration.event'(event, ctx) {
      await deliverEvent(ctx, event);
    },
  },
});
