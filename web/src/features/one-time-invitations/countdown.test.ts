import { describe, expect, it } from 'vitest';
import { formatRemaining, remainingMs } from './countdown.ts';

describe('the QR countdown', () => {
  const now = Date.parse('2026-11-27T10:00:00Z');

  it('counts down to expiresAt and stops at zero', () => {
    expect(remainingMs('2026-11-27T10:09:30Z', now)).toBe(570_000);
    expect(remainingMs('2026-11-27T09:59:00Z', now)).toBe(0);
    expect(remainingMs('not a date', now)).toBe(0);
  });

  it('never shows more than the ten minutes a QR code lives (a member clock running behind)', () => {
    expect(remainingMs('2026-11-27T11:00:00Z', now)).toBe(600_000);
  });

  it('shows m:ss rounded up to the second', () => {
    expect(formatRemaining(600_000)).toBe('10:00');
    expect(formatRemaining(59_001)).toBe('1:00');
    expect(formatRemaining(9_000)).toBe('0:09');
    expect(formatRemaining(0)).toBe('0:00');
  });
});
