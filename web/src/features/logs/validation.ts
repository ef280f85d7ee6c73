/** The longest range one download may cover (the server refuses more with LOG_RANGE_TOO_LONG). */
export const MAX_RANGE_DAYS = 31;
/** The range the form starts with: the last 7 days, today included. */
export const DEFAULT_RANGE_DAYS = 7;

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** What is wrong with one bound: a local reason, or the server's code for the same rule. */
export type RangeProblem = 'required' | 'invalidDate' | 'LOG_RANGE_INVERTED' | 'LOG_RANGE_TOO_LONG';

/** A yyyy-MM-dd that names a real day, as days since the epoch; null otherwise. */
function dayNumber(value: string): number | null {
  if (!DATE.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) return null;
  return time / DAY_MS;
}

/** The server's rules for `from` and `to` (both inclusive days): each a real date, from ≤ to, at most 31 days. */
export function rangeProblems(from: string, to: string): { from?: RangeProblem; to?: RangeProblem } {
  const problems: { from?: RangeProblem; to?: RangeProblem } = {};
  const start = dayNumber(from);
  const end = dayNumber(to);
  if (!from) problems.from = 'required';
  else if (start === null) problems.from = 'invalidDate';
  if (!to) problems.to = 'required';
  else if (end === null) problems.to = 'invalidDate';
  if (start === null || end === null) return problems;
  if (start > end) problems.from = 'LOG_RANGE_INVERTED';
  else if (end - start + 1 > MAX_RANGE_DAYS) problems.to = 'LOG_RANGE_TOO_LONG';
  return problems;
}

/** Today's date in Japan (the server reads dates as Japan days), as yyyy-MM-dd. */
export function todayInJapan(now: Date = new Date()): string {
  return new Date(now.getTime() + 9 * 3_600_000).toISOString().slice(0, 10);
}

/** `days` days before a yyyy-MM-dd date. */
export function daysBefore(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - days * DAY_MS).toISOString().slice(0, 10);
}

/** The default range: the last 7 days, today included. */
export function defaultRange(now: Date = new Date()): { from: string; to: string } {
  const to = todayInJapan(now);
  return { from: daysBefore(to, DEFAULT_RANGE_DAYS - 1), to };
}
