import { createHash } from 'node:crypto';
import { addMonths, definePlugin, tokyoMonth } from '../../core/plugins/index.ts';
import { closeMonth, type Ctx } from './close.ts';
import { type BillingConfig, CONFIG_SCHEMA, issuerConfigured, readConfig } from './config.ts';
import { billingStartMonth } from './start.ts';
import { billingRoutes } from './routes.ts';

export type { BillingConfig } from './config.ts';

/** Closes an ended month's invoices for every organization (idempotent: run twice, nothing changes). */
export const CLOSE_MONTH_JOB = 'billing.close-month';

/** One job id per month: every process's timer asks for the same job, and the queue keeps one. */
export function closeJobId(month: string): string {
  const hex = createHash('sha256').update(`billing.close-month:${month}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const timers = new WeakMap<object, NodeJS.Timeout>();

/** Asks for the closing of the month that ended last (JST); the job does nothing for what is closed. */
async function requestClosing(ctx: Ctx): Promise<void> {
  const month = addMonths(tokyoMonth(ctx.clock.now()), -1);
  await ctx.jobs.send(CLOSE_MONTH_JOB, { month }, { id: closeJobId(month) });
}

/**
 * Billing: each organization's monthly statement computed from its usage counters and the plan catalog, closed
 * after the month ends (Asia/Tokyo) into a qualified invoice (適格請求書) that never changes — a signed Japanese PDF
 * and a CSV made once and stored — with the current month shown live and corrections issued as credit notes by the
 * service operator.
 */
export const billingPlugin = definePlugin<BillingConfig>({
  name: 'billing',
  migrations: new URL('./migrations/', import.meta.url),
  config: {
    schema: CONFIG_SCHEMA,
    read: (config, slice) => readConfig(config.operatorToken, slice),
  },

  async start(ctx) {
    // The first start records its month: that month and earlier ones are never closed (incomplete counters).
    const started = await billingStartMonth(ctx.db, ctx.clock.now());
    if (!issuerConfigured(ctx.config)) {
      ctx.log.warn(
        'billing: the issuer is the embedded example, so NO month is closed and no invoice is issued (previews only); ' +
          'set KEIYAKU_PLUGIN_BILLING_ISSUER_NAME, _REGISTRATION_NUMBER and _ISSUER_ADDRESS',
      );
      return;
    }
    ctx.log.info({ startedMonth: started }, 'billing: months after the start month are closed when they end');
    // Worker processes ask (API processes scaled out only serve); pg-boss keeps one job per month id when several
    // workers ask, and closing is idempotent anyway.
    if (!ctx.runsWorkers) return;
    const tick = () =>
      requestClosing(ctx).catch((error) => ctx.log.error({ err: error }, 'billing: asking for the closing failed'));
    const timer = setInterval(tick, ctx.config.closeCheckMinutes * 60_000);
    timer.unref();
    timers.set(ctx, timer);
  },

  async stop(ctx) {
    clearInterval(timers.get(ctx));
    timers.delete(ctx);
  },

  routes(router, ctx) {
    billingRoutes(router, ctx);
  },

  jobs: {
    [CLOSE_MONTH_JOB]: {
      handler: async (job, ctx) => {
        const { month } = job.data as { month: string };
        const result = await closeMonth(ctx, month);
        ctx.log.info({ month, ...result }, 'billing: month closed');
      },
      policy: () => ({ retryLimit: 5, retryDelaySeconds: 300, retryBackoff: true, maxRunSeconds: 3600 }),
    },
  },
});
