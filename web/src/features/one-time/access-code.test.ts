import { describe, expect, it } from 'vitest';
import { accessCodeCharacters, formatAccessCode, isAccessCode, sixDigits } from './access-code.ts';

describe('the access code', () => {
  it('groups what is typed in fours with hyphens, in upper case, at most 16 characters', () => {
    expect(formatAccessCode('abcd')).toBe('ABCD');
    expect(formatAccessCode('abcde')).toBe('ABCD-E');
    expect(formatAccessCode('ABCD-EFGH jkmn pqrs')).toBe('ABCD-EFGH-JKMN-PQRS');
    expect(formatAccessCode('ABCDEFGHJKMNPQRSTUVW')).toBe('ABCD-EFGH-JKMN-PQRS');
  });

  it('accepts 16 characters of the alphabet whatever the case, spaces and hyphens', () => {
    expect(isAccessCode('abcd-efgh-jkmn-pqrs')).toBe(true);
    expect(isAccessCode(' ABCD EFGH JKMN PQRS ')).toBe(true);
    expect(accessCodeCharacters('ab-cd 23')).toBe('ABCD23');
    // Typed with a Japanese input method: full-width letters, digits and hyphens.
    expect(isAccessCode('ＡＢＣＤ－ＥＦＧＨ－ＪＫＭＮ－ＰＱＲ２')).toBe(true);
  });

  it('refuses a short code and letters outside the alphabet (0, O, 1, I, L)', () => {
    expect(isAccessCode('ABCD-EFGH-JKMN-PQR')).toBe(false);
    expect(isAccessCode('ABCD-EFGH-JKMN-PQR0')).toBe(false);
    expect(isAccessCode('ABCD-EFGH-JKMN-PQRO')).toBe(false);
    expect(isAccessCode('ABCD-EFGH-JKMN-PQRI')).toBe(false);
  });

  it('keeps only six digits of the verification code', () => {
    expect(sixDigits('123 456')).toBe('123456');
    expect(sixDigits('12a34567')).toBe('123456');
  });
});
