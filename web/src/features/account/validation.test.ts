import { describe, expect, it } from 'vitest';
import { mobileDigits } from './validation.ts';

describe('mobileDigits (the SMS number rule of core/signing/sms.ts)', () => {
  it('accepts 060/070/080/090 numbers with separators and gives their digits', () => {
    expect(mobileDigits('090-1234-5678')).toBe('09012345678');
    expect(mobileDigits('(070) 1234 5678')).toBe('07012345678');
    expect(mobileDigits('06012345678')).toBe('06012345678');
    expect(mobileDigits('080 1234 5678')).toBe('08012345678');
  });

  it('refuses landlines, 050 numbers, wrong lengths and letters', () => {
    for (const number of ['03-1234-5678', '05012345678', '0901234567', '090123456789', '09O12345678', '']) {
      expect(mobileDigits(number)).toBeNull();
    }
  });
});
