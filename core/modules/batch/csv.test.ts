import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { restoreCell, writeCsv } from '../../contract/csv.ts';
import { decodeCsv, parseCsv, splitList } from './csv.ts';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof AppError ? `${error.code}${error.params.line ? `@${error.params.line}` : ''}` : 'other';
  }
  return undefined;
}

describe('parseCsv', () => {
  it('splits records on CRLF and LF and keeps each record’s starting line', () => {
    expect(parseCsv('a,b\r\n1,2\n3,4')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['1', '2'] },
      { line: 3, fields: ['3', '4'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks', () => {
    const records = parseCsv('name,note\r\n"Doe, John","say ""hi""\r\nagain"\r\nx,y\r\n');
    expect(records).toEqual([
      { line: 1, fields: ['name', 'note'] },
      { line: 2, fields: ['Doe, John', 'say "hi"\r\nagain'] },
      { line: 4, fields: ['x', 'y'] },
    ]);
  });

  it('skips blank lines and keeps empty fields', () => {
    expect(parseCsv('a,b\n\n,\n1,\n')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 3, fields: ['', ''] },
      { line: 4, fields: ['1', ''] },
    ]);
  });

  it('refuses an unclosed quote and text after a closing quote, naming the line', () => {
    expect(codeOf(() => parseCsv('a\n"open\nstill'))).toBe('BATCH_CSV_MALFORMED@2');
    expect(codeOf(() => parseCsv('a,b\n"x"y,1'))).toBe('BATCH_CSV_MALFORMED@2');
  });
});

describe('decodeCsv', () => {
  it('reads UTF-8 with and without BOM', () => {
    expect(decodeCsv(Buffer.from('\uFEFFloginId\n山田', 'utf8'))).toBe('loginId\n山田');
    expect(decodeCsv(Buffer.from('loginId\n山田', 'utf8'))).toBe('loginId\n山田');
  });

  it('reads Shift_JIS as Excel in Japan saves it', () => {
    // "山田" in Shift_JIS.
    const bytes = Buffer.concat([Buffer.from('name\n'), Buffer.from([0x8e, 0x52, 0x93, 0x63])]);
    expect(decodeCsv(bytes)).toBe('name\n山田');
  });

  it('refuses an empty file and bytes that are neither UTF-8 nor Shift_JIS', () => {
    expect(codeOf(() => decodeCsv(Buffer.alloc(0)))).toBe('BATCH_CSV_EMPTY');
    expect(codeOf(() => decodeCsv(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff, 0xfe])))).toBe(
      'BATCH_CSV_ENCODING_INVALID',
    );
  });
});

describe('writing', () => {
  it('reads back what the shared writer wrote: quotes, line breaks, and guarded formulas once restored', () => {
    const text = writeCsv(
      ['a', 'b'],
      [
        ['x,y', 'He said "no"\nthen left'],
        ['=SUM(A1)', "'plain"],
      ],
    );
    expect(text).toBe('\uFEFFa,b\r\n"x,y","He said ""no""\nthen left"\r\n\'=SUM(A1),\'plain\r\n');
    const read = parseCsv(decodeCsv(Buffer.from(text))).map((r) => r.fields.map(restoreCell));
    expect(read).toEqual([
      ['a', 'b'],
      ['x,y', 'He said "no"\nthen left'],
      ['=SUM(A1)', "'plain"],
    ]);
  });

  it('splits list cells on semicolons, trimming blanks', () => {
    expect(splitList(' a ;b;; c ')).toEqual(['a', 'b', 'c']);
    expect(splitList('')).toEqual([]);
  });
});
