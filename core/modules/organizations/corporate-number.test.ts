import { describe, expect, it } from 'vitest';
import { isValidCorporateNumber } from './corporate-number.ts';

/** The check digit of twelve body digits, computed independently of the code under test. */
function checkDigit(body: string): number {
  const digits = [...body].reverse().map(Number);
  const sum = digits.reduce((total, digit, index) => total + digit * (index % 2 === 0 ? 1 : 2), 0);
  return 9 - (sum % 9);
}

describe('corporate number check digit', () => {
  it('accepts the National Tax Agency example 7000012050002', () => {
    expect(isValidCorporateNumber('7000012050002')).toBe(true);
  });

  it('rejects 7000012050002 with any other check digit', () => {
    for (let digit = 0; digit <= 9; digit++) {
      if (digit === 7) continue;
      expect(isValidCorporateNumber(`${digit}000012050002`)).toBe(false);
    }
  });

  it('rejects a changed body digit (the check digit no longer matches)', () => {
    expect(isValidCorporateNumber('7000012050003')).toBe(false);
    expect(isValidCorporateNumber('7100012050002')).toBe(false);
  });

  it('agrees with the formula for numbers whose weighted sum is a multiple of 9 (check digit 9)', () => {
    expect(checkDigit('000000000000')).toBe(9);
    expect(isValidCorporateNumber('9000000000000')).toBe(true);
    expect(isValidCorporateNumber('0000000000000')).toBe(false);
  });

  it('agrees with the formula on many bodies', () => {
    for (let i = 0; i < 200; i++) {
      const body = String(i * 7_919_113 + 100_003)
        .padStart(12, '0')
        .slice(-12);
      const check = checkDigit(body);
      expect(isValidCorporateNumber(`${check}${body}`)).toBe(true);
      expect(isValidCorporateNumber(`${(check % 9) + 1}${body}`)).toBe(false);
    }
  });

  it('rejects anything that is not exactly 13 digits', () => {
    for (const bad of ['', '700001205000', '70000120500020', '700001205000a', '７000012050002', ' 7000012050002']) {
      expect(isValidCorporateNumber(bad)).toBe(false);
    }
  });
});
