import type { Knex } from 'knex';

/**
 * What the usage details screen counts per organization and month: documents stored, signatures made (also counted
 * per signature type as `signatures.<type code>`), RFC 3161 timestamps obtained (signature timestamps, document
 * timestamps and their renewals), one-time users who first signed in, pages read by AI-OCR.
 */
export const USAGE_METRICS = ['documents', 'signatures', 'timestamps', 'oneTimeUsers', 'ocrPages'] as const;
export type UsageMetric = (typeof USAGE_METRICS)[number];
/** The counter of one signature type's signatures. */
export type SignatureTypeMetric = `signatures.${string}`;

/** The counter name of a signature type (`signatures.party`). */
export const signatureTypeMetric = (code: string): SignatureTypeMetric => `signatures.${code}`;

/** Usage months are calendar months in Japan Standard Time (UTC+9, no daylight saving). */
const JST_OFFSET_MS = 9 * 60 * 60 * 1000;

/** The JST month (`YYYY-MM`) an instant falls in: 2026-11-30T16:00Z is 2026-12-01 01:00 JST, so `2026-12`. */
export function tokyoMonth(at: Date): string {
  return new Date(at.getTime() + JST_OFFSET_MS).toISOString().slice(0, 7);
}

/** The month `delta` months after `month` (negative: before). */
export function addMonths(month: string, delta: number): string {
  const [year, mon] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (mon - 1) + delta;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Months from `from` to `to` inclusive, oldest first. */
export function monthsBetween(from: string, to: string): string[] {
  const months: string[] = [];
  for (let month = from; month <= to; month = addMonths(month, 1)) months.push(month);
  return months;
}

/**
 * Adds `amount` to an organization's counter of `metric` for the JST month of `at`. Call it inside the transaction
 * of the change being counted (a document stored, a signature made...), so the count exists exactly when the change
 * committed; concurrent calls add up (one upsert, row-locked by PostgreSQL). Pass `deps.clock.now()` as `at`.
 */
export async function recordUsage(
  trx: Knex.Transaction,
  organizationId: string,
  metric: UsageMetric | SignatureTypeMetric,
  amount = 1,
  at: Date = new Date(),
): Promise<void> {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`usage amount must be a whole number, got ${amount}`);
  if (amount === 0) return;
  await trx.raw(
    `INSERT INTO usage_counters (organization_id, month, metric, count, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (organization_id, month, metric)
     DO UPDATE SET count = usage_counters.count + excluded.count, updated_at = excluded.updated_at`,
    [organizationId, tokyoMonth(at), metric, amount, at],
  );
}

/** Every counter of an organization's JST month, by metric name; metrics with nothing counted are absent. */
export async function usageOfMonth(db: Knex, organizationId: string, month: string): Promise<Record<string, number>> {
  const rows = await db('usage_counters')
    .where({ organization_id: organizationId, month })
    .select<{ metric: string; count: string | number }[]>('metric', 'count');
  return Object.fromEntries(rows.map((row) => [row.metric, Number(row.count)]));
}
