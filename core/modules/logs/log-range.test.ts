import { describe, expect, it } from 'vitest';
import type { AppError } from '../../http/errors.ts';
import { parseLogRange } from './log-range.ts';

const codeOf = (from: string, to: string) => {
  try {
    parseLogRange(from, to);
    return null;
  } catch (error) {
    return (error as AppError).code;
  }
};

describe('log download range', () => {
  it('reads dates as whole days in Japan time, both ends included', () => {
    const range = parseLogRange('2026-11-01', '2026-11-30');
    expect(range.start.toISOString()).toBe('2026-10-31T15:00:00.000Z');
    expect(range.end.toISOString()).toBe('2026-11-30T15:00:00.000Z');
    expect(range.label).toBe('20261101-20261130');
  });

  it('reads date-times as instants, the end included', () => {
    const range = parseLogRange('2026-11-01T09:00:00+09:00', '2026-11-01T10:00:00Z');
    expect(range.start.toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(range.end.toISOString()).toBe('2026-11-01T10:00:00.001Z');
  });

  it('allows 31 days and refuses more with LOG_RANGE_TOO_LONG, for dates and date-times', () => {
    expect(codeOf('2026-01-01', '2026-01-31')).toBeNull();
    expect(codeOf('2026-01-01', '2026-02-01')).toBe('LOG_RANGE_TOO_LONG');
    expect(codeOf('2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z')).toBeNull();
    expect(codeOf('2026-01-01T00:00:00Z', '2026-02-01T00:00:00.001Z')).toBe('LOG_RANGE_TOO_LONG');
  });

  it('refuses a start after the end with LOG_RANGE_INVERTED; one day is fine', () => {
    expect(codeOf('2026-01-02', '2026-01-01')).toBe('LOG_RANGE_INVERTED');
    expect(codeOf('2026-01-01', '2026-01-01')).toBeNull();
  });
});
