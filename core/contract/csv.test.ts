import { describe, expect, it } from 'vitest';
import { csvChunks, csvField, csvRecord, neutraliseCell, restoreCell, writeCsv } from './csv.ts';

const FORMULA_STARTS = ['=', '+', '-', '@', '\t', '\r', '＝', '＋', '－', '＠'];

describe('neutraliseCell / restoreCell', () => {
  it('puts a single quote before every formula start (OWASP six and the full-width four)', () => {
    for (const start of FORMULA_STARTS) expect(neutraliseCell(`${start}1+1`)).toBe(`'${start}1+1`);
    expect(neutraliseCell('=HYPERLINK("http://evil","x")')).toBe('\'=HYPERLINK("http://evil","x")');
    expect(neutraliseCell('@SUM(1+1)')).toBe("'@SUM(1+1)");
  });

  it('leaves text that is not a formula alone, a formula character inside a value included', () => {
    for (const text of ['山田 太郎', 'a=b', ' =1', '1-2', "'plain", "'", '', 'Mozilla/5.0 (X11; Linux)'])
      expect(neutraliseCell(text)).toBe(text);
  });

  it('restores exactly what it guarded, quotes already in front of a formula included', () => {
    const values = ['=1', "'=1", "''=1", "'plain", "'", "''", '-5', "'-5", '\tx', '＝ＳＵＭ', '普通', '', "'\r"];
    for (const value of values) expect(restoreCell(neutraliseCell(value))).toBe(value);
    // Written cells are distinct, so the file never confuses two stored values.
    expect(new Set(values.map(neutraliseCell)).size).toBe(values.length);
    expect(neutraliseCell("'=1")).toBe("''=1");
    expect(restoreCell("'plain")).toBe("'plain");
  });
});

describe('csvField', () => {
  it('writes finite numbers as numbers (a negative amount stays a number) and guards numeric text', () => {
    expect(csvField(-1200)).toBe('-1200');
    expect(csvField(3)).toBe('3');
    expect(csvField('-1200')).toBe("'-1200");
    expect(csvField(Number.NEGATIVE_INFINITY)).toBe("'-Infinity");
  });

  it('quotes after guarding, so a guarded cell with a comma or quote stays one field', () => {
    expect(csvField('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvField('+a,b')).toBe('"\'+a,b"');
    expect(csvField('\r\n=1')).toBe('"\'\r\n=1"');
  });

  it('writes null as an empty field and the empty string as "" only when asked to tell them apart', () => {
    expect(csvRecord([null, '', 'x'])).toBe(',,x\r\n');
    expect(csvRecord([null, '', 'x'], { distinguishEmpty: true })).toBe(',"",x\r\n');
  });
});

describe('writeCsv / csvChunks', () => {
  it('guards header names too (custom property names become headers)', () => {
    expect(writeCsv(['id', '=cmd'], [[1, 'a']])).toBe("\uFEFFid,'=cmd\r\n1,a\r\n");
  });

  it('streams the same text as writeCsv, in chunks', async () => {
    async function* rows() {
      for (let i = 0; i < 3000; i++) yield { i, name: i % 2 ? `=x${i}` : `name ${i}` };
    }
    const chunks: string[] = [];
    for await (const chunk of csvChunks(['i', 'name'], rows(), (r) => [r.i, r.name])) chunks.push(chunk);
    const streamed = chunks.join('');
    const whole = writeCsv(
      ['i', 'name'],
      Array.from({ length: 3000 }, (_, i) => [i, i % 2 ? `=x${i}` : `name ${i}`]),
    );
    expect(streamed).toBe(whole);
    expect(chunks.length).toBeGreaterThan(1);
  });
});
