import { describe, expect, it } from 'vitest';
import { readAmount, readDate, readEnum, readNumber, readText } from './normalize.ts';

describe('readDate', () => {
  it.each([
    ['2026年4月1日', '2026-04-01'],
    ['2026/4/1', '2026-04-01'],
    ['2026-04-01', '2026-04-01'],
    ['2026.4.1', '2026-04-01'],
    ['２０２６年１２月３１日（木）', '2026-12-31'],
    ['契約日 2026 年 4 月 1 日', '2026-04-01'],
    ['二〇二六年四月一日', '2026-04-01'],
  ])('reads %s in the Western calendar', (raw, value) => {
    expect(readDate(raw)).toEqual({ value, calendar: 'western' });
  });

  it.each([
    ['令和8年4月1日', '2026-04-01'],
    ['令和元年5月1日', '2019-05-01'],
    ['R8.4.1', '2026-04-01'],
    ['r8/12/31', '2026-12-31'],
    ['平成31年4月30日', '2019-04-30'],
    ['H1.1.8', '1989-01-08'],
    ['昭和64年1月7日', '1989-01-07'],
    ['令和八年四月一日', '2026-04-01'],
    ['令和十年十二月二十五日', '2028-12-25'],
    ['令和　８年　４月　１日', '2026-04-01'],
  ])('reads %s in the Japanese calendar', (raw, value) => {
    expect(readDate(raw)).toEqual({ value, calendar: 'japanese' });
  });

  it.each(['2026/2/30', '2026年13月1日', '平成31年5月1日', '令和1年4月30日', '昭和64年1月8日', '4月1日', '', 'abc'])(
    'refuses %s (no such day, outside its era, or no year)',
    (raw) => {
      expect(readDate(raw)).toBeNull();
    },
  );
});

describe('readAmount', () => {
  it('reads what scans make of separators: a dot for a comma, a speck after the amount; refuses broken groups', () => {
    expect(readAmount('41..903, 000円')?.value).toBe(41_903_000);
    expect(readAmount('税込\\6,096, 213.')).toEqual({ value: 6_096_213, tax: 'included' });
    expect(readAmount('1.234円')?.value).toBe(1234);
    expect(readAmount('719, 83079')).toBeNull();
    expect(readAmount('12,34円')).toBeNull();
  });

  it.each([
    ['¥1,234,000', 1_234_000],
    ['1,234,000円', 1_234_000],
    ['金1,234,000円也', 1_234_000],
    ['￥１，２３４，０００－', 1_234_000],
    ['123万円', 1_230_000],
    ['12万3千円', 123_000],
    ['1億2,000万円', 120_000_000],
    ['5千円', 5_000],
    ['金三百万円', 3_000_000],
    ['1.5万円', 15_000],
  ])('reads %s', (raw, value) => {
    expect(readAmount(raw)).toEqual({ value, tax: null });
  });

  it('notes whether tax is included or excluded', () => {
    expect(readAmount('1,100,000円（税込）')).toEqual({ value: 1_100_000, tax: 'included' });
    expect(readAmount('税抜 1,000,000円')).toEqual({ value: 1_000_000, tax: 'excluded' });
    expect(readAmount('100万円（税別）')).toEqual({ value: 1_000_000, tax: 'excluded' });
  });

  it('refuses a text with no amount or two different amounts rather than guessing', () => {
    expect(readAmount('金額未定')).toBeNull();
    expect(readAmount('')).toBeNull();
    expect(readAmount('1,000円 または 2,000円')).toBeNull();
  });
});

describe('readNumber', () => {
  it('reads separators, decimals, full-width digits and Japanese negatives', () => {
    expect(readNumber('1,234')).toBe(1234);
    expect(readNumber('１２３４．５')).toBe(1234.5);
    expect(readNumber('−12')).toBe(-12);
    expect(readNumber('▲1,000')).toBe(-1000);
    expect(readNumber(' 42 ')).toBe(42);
  });

  it('refuses what is not one number', () => {
    expect(readNumber('12,34')).toBeNull();
    expect(readNumber('1 2 3a')).toBeNull();
    expect(readNumber('')).toBeNull();
  });
});

describe('readText and readEnum', () => {
  it('trims text and collapses spaces, ideographic ones too', () => {
    expect(readText('  株式会社　 取引先 \n')).toBe('株式会社 取引先');
    expect(readText(' \u3000 ')).toBeNull();
  });

  const options = [
    { value: 'sale', label: '売買契約' },
    { value: 'service', label: '業務委託契約' },
    { value: 'nda', label: '秘密保持契約' },
  ];

  it('picks the exact, the contained and the closest option', () => {
    expect(readEnum('業務委託契約', options)).toEqual({ value: 'service', similarity: 1 });
    expect(readEnum('本件は秘密保持契約とする', options)).toMatchObject({ value: 'nda' });
    // OCR read one character wrong.
    expect(readEnum('業務委記契約', options)).toMatchObject({ value: 'service' });
  });

  it('refuses a text close to no option', () => {
    expect(readEnum('雇用契約書の写し', options)).toBeNull();
    expect(readEnum('', options)).toBeNull();
  });
});
