import { AppError } from '../../http/errors.ts';

/** The longest range one log download may cover (the spec's "Log output range at most 31 days"). */
export const MAX_LOG_RANGE_DAYS = 31;

const DAY_MS = 86_400_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** A download's time range: rows with `start <= time < end`. */
export interface LogRange {
  start: Date;
  end: Date;
  /** yyyyMMdd-yyyyMMdd in Japan time, for the file name. */
  label: string;
}

/** A date (yyyy-MM-dd, a day in Japan time) or an RFC 3339 date-time, as the start of a range. */
function startOf(value: string): Date {
  return new Date(DATE_ONLY.test(value) ? `${value}T00:00:00+09:00` : value);
}

const compact = (date: Date) => new Date(date.getTime() + 9 * 3_600_000).toISOString().slice(0, 10).replace(/-/g, '');

/**
 * Reads `from` and `to` (both inclusive: a date `to` covers that whole day in Japan time). The range may span at
 * most 31 days (so 2026-01-01 to 2026-01-31 is fine and to 2026-02-01 is not) and `from` must not be after `to`.
 */
export function parseLogRange(from: string, to: string): LogRange {
  const start = startOf(from);
  // A date ends at the next midnight; a date-time is itself the last instant included.
  const spanEnd = DATE_ONLY.test(to) ? new Date(startOf(to).getTime() + DAY_MS) : new Date(to);
  const end = DATE_ONLY.test(to) ? spanEnd : new Date(spanEnd.getTime() + 1);
  if (Number.isNaN(start.getTime()) || Number.isNaN(spanEnd.getTime())) {
    throw AppError.invalid([
      ...(Number.isNaN(start.getTime()) ? [{ code: 'VALIDATION_FAILED' as const, pointer: '/from' }] : []),
      ...(Number.isNaN(spanEnd.getTime()) ? [{ code: 'VALIDATION_FAILED' as const, pointer: '/to' }] : []),
    ]);
  }
  if (start.getTime() >= end.getTime()) throw new AppError('LOG_RANGE_INVERTED', { pointer: '/from' });
  if (spanEnd.getTime() - start.getTime() > MAX_LOG_RANGE_DAYS * DAY_MS) {
    throw new AppError('LOG_RANGE_TOO_LONG', { pointer: '/to', params: { max: MAX_LOG_RANGE_DAYS } });
  }
  return { start, end, label: `${compact(start)}-${compact(new Date(end.getTime() - 1))}` };
}
