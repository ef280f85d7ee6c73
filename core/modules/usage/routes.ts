import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { addMonths, monthsBetween, tokyoMonth, USAGE_METRICS, type UsageMetric } from './counters.ts';

/** The longest range one request may ask for (five years), so a typo cannot ask for centuries of zeros. */
export const MAX_USAGE_MONTHS = 60;

type Counts = Record<UsageMetric, number> & { signaturesByType: Record<string, number> };
const zeros = (): Counts => ({
  documents: 0,
  signatures: 0,
  signaturesByType: {},
  timestamps: 0,
  oneTimeUsers: 0,
  ocrPages: 0,
});
const SIGNATURE_TYPE_PREFIX = 'signatures.';

export function usageRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, clock } = deps;

  api.operation('getUsage', { permission: 'organization:manage' }, async ({ principal, query }) => {
    const to = query.to ?? (query.from ? addMonths(query.from, 11) : tokyoMonth(clock.now()));
    const from = query.from ?? addMonths(to, -11);
    if (from > to) throw new AppError('USAGE_RANGE_INVALID', { pointer: '/from', params: { max: MAX_USAGE_MONTHS } });
    const months = monthsBetween(from, to);
    if (months.length > MAX_USAGE_MONTHS) {
      throw new AppError('USAGE_RANGE_INVALID', { pointer: '/to', params: { max: MAX_USAGE_MONTHS } });
    }
    const rows = await knex('usage_counters')
      .where({ organization_id: principal.organizationId })
      .whereBetween('month', [from, to])
      .select<{ month: string; metric: string; count: string | number }[]>('month', 'metric', 'count');
    const byMonth = new Map(months.map((month) => [month, zeros()]));
    const totals = zeros();
    for (const row of rows) {
      const counts = byMonth.get(row.month);
      if (!counts) continue;
      const count = Number(row.count);
      if (row.metric.startsWith(SIGNATURE_TYPE_PREFIX)) {
        const type = row.metric.slice(SIGNATURE_TYPE_PREFIX.length);
        counts.signaturesByType[type] = (counts.signaturesByType[type] ?? 0) + count;
        totals.signaturesByType[type] = (totals.signaturesByType[type] ?? 0) + count;
      } else if ((USAGE_METRICS as readonly string[]).includes(row.metric)) {
        counts[row.metric as UsageMetric] += count;
        totals[row.metric as UsageMetric] += count;
      }
    }
    return {
      body: {
        data: months.map((month) => ({
          type: 'UsageMonth' as const,
          id: month,
          attributes: { month, ...byMonth.get(month)! },
        })),
        meta: { from, to, timeZone: 'Asia/Tokyo' as const, totals, plan: principal.plan },
      },
    };
  });
}
