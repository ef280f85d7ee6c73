import { describe, expect, it } from 'vitest';
import { decodeBody, parseCsv, parseLookupCsv } from './corporate-number-lookup.ts';

/** A version 4 record with the columns a lookup reads filled in. */
function record(number: string, name: string, latest = '1'): string {
  const fields = new Array<string>(30).fill('');
  Object.assign(fields, {
    0: '1',
    1: number,
    4: '2024-04-01',
    6: name,
    9: '東京都',
    10: '千代田区',
    11: '霞が関3丁目1-1',
    23: latest,
    24: 'National Tax Agency',
  });
  return fields.map((f, i) => (i === 0 || f === '' ? f : `"${f.replace(/"/g, '""')}"`)).join(',');
}

describe('corporate number Web-API CSV', () => {
  it('splits quoted fields with commas, doubled quotes and CRLF line ends', () => {
    expect(parseCsv('a,"b,c","d ""e"""\r\n1,,3\r\n')).toEqual([
      ['a', 'b,c', 'd "e"'],
      ['1', '', '3'],
    ]);
  });

  it('reads the name and the address joined from prefecture, city and street of the latest record', () => {
    const text = `\uFEFF2024-04-01,2,1,1\r\n${record('7000012050002', '旧名称', '0')}\r\n${record('7000012050002', '国税庁, "本庁"')}\r\n`;
    expect(parseLookupCsv(text, '7000012050002')).toEqual({
      status: 'found',
      name: '国税庁, "本庁"',
      nameEn: 'National Tax Agency',
      address: '東京都千代田区霞が関3丁目1-1',
      updatedOn: '2024-04-01',
    });
  });

  it('answers notFound for a header with count 0, and unavailable for an answer that is not the CSV format', () => {
    expect(parseLookupCsv('2024-04-01,0,1,1\r\n', '7000012050002')).toEqual({ status: 'notFound' });
    expect(parseLookupCsv('<html>maintenance</html>', '7000012050002').status).toBe('unavailable');
  });

  it('decodes a Shift_JIS answer (type=01) by its declared charset and UTF-8 otherwise', () => {
    const sjis = new Uint8Array([0x83, 0x65, 0x83, 0x58, 0x83, 0x67]); // テスト
    expect(decodeBody(sjis, 'text/csv; charset=Shift_JIS')).toBe('テスト');
    expect(decodeBody(new TextEncoder().encode('テスト'), 'text/csv; charset=UTF-8')).toBe('テスト');
  });
});
