import { describe, expect, it } from 'vitest';
import { defaultRange, rangeProblems } from './validation.ts';

describe('log range validation', () => {
  it('accepts 31 days and refuses 32 days on the end date', () => {
    expect(rangeProblems('2026-01-01', '2026-01-31')).toEqual({});
    expect(rangeProblems('2026-01-01', '2026-02-01')).toEqual({ to: 'LOG_RANGE_TOO_LONG' });
  });

  it('refuses a start after the end on the start date', () => {
    expect(rangeProblems('2026-01-02', '2026-01-01')).toEqual({ from: 'LOG_RANGE_INVERTED' });
    expect(rangeProblems('2026-01-01', '2026-01-01')).toEqual({});
  });

  it('requires both dates and real days', () => {
    expect(rangeProblems('', '2026-02-30')).toEqual({ from: 'required', to: 'invalidDate' });
  });

  it('starts with the last 7 days in Japan time, today included', () => {
    // 2026-11-21 23:30 UTC is already the 22nd in Japan.
    expect(defaultRange(new Date('2026-11-21T23:30:00Z'))).toEqual({ from: '2026-11-16', to: '2026-11-22' });
  });
});
