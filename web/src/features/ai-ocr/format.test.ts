import { describe, expect, it } from 'vitest';
import { formatDate, formatProposedValue, groupDigits, percent } from './format.ts';

describe('proposed values as shown', () => {
  it('writes dates in words: 2026年4月1日 in Japanese, April 1, 2026 in English', () => {
    expect(formatDate('2026-04-01', 'ja')).toBe('2026年4月1日');
    expect(formatDate('2026-04-01', 'en')).toBe('April 1, 2026');
    expect(formatDate('令和8年', 'ja')).toBe('令和8年');
  });

  it('groups the integer digits of decimal text without going through a float', () => {
    expect(groupDigits('1100000')).toBe('1,100,000');
    expect(groupDigits('123456789012345')).toBe('123,456,789,012,345');
    expect(groupDigits('-1234.5678')).toBe('-1,234.5678');
    expect(groupDigits('12')).toBe('12');
  });

  it('shows amounts with 円 or ¥ when the property counts yen, options by label, and nothing unread', () => {
    const amount = { inputType: 10, value: '1100000', label: null };
    expect(formatProposedValue(amount, 'ja', 20)).toBe('1,100,000円');
    expect(formatProposedValue(amount, 'en', 20)).toBe('¥1,100,000');
    expect(formatProposedValue(amount, 'ja', 10)).toBe('1,100,000');
    expect(formatProposedValue({ inputType: 40, value: 'id-1', label: '東京' }, 'ja')).toBe('東京');
    expect(formatProposedValue({ inputType: 20, value: '株式会社サンプル', label: null }, 'ja')).toBe(
      '株式会社サンプル',
    );
    expect(formatProposedValue({ inputType: 30, value: null, label: null }, 'ja')).toBeNull();
  });

  it('rounds confidence to whole percent', () => {
    expect(percent(0.874)).toBe('87%');
    expect(percent(1)).toBe('100%');
  });
});
