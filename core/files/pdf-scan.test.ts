import { describe, expect, it } from 'vitest';
import { splitPdf } from './pdf-scan.ts';

/** The streams of `text` as [dictionary text, body] and the text outside them. */
function split(text: string) {
  const bytes = Buffer.from(text, 'latin1');
  const { outside, streams } = splitPdf(bytes);
  return { outside, streams: streams.map((s) => [s.dictText.trim(), s.body.toString('latin1'), s.ref]) };
}

describe('splitting a PDF into streams and the text outside them', () => {
  it('takes a stream keyword followed by CRLF, CR or LF, and not one that ends a word', () => {
    const text =
      '1 0 obj << /Length 3 >> stream\r\nabc\r\nendstream endobj\n' +
      '2 0 obj << /Length 2 >> stream\rde\nendstream endobj\n' +
      '3 0 obj << /Length 1 >> stream\nf endstream endobj\n' +
      '4 0 obj (xstream\n and stream followed by a space) endobj trailer';
    const { outside, streams } = split(text);
    expect(streams).toEqual([
      ['<< /Length 3 >>', 'abc', { num: 1, gen: 0 }],
      ['<< /Length 2 >>', 'de', { num: 2, gen: 0 }],
      ['<< /Length 1 >>', 'f', { num: 3, gen: 0 }],
    ]);
    expect(outside).not.toContain('abc');
    expect(outside).toContain('4 0 obj (xstream\n and stream followed by a space) endobj trailer');
  });

  it('ends a stream at endstream when its /Length is wrong, indirect or past the end of the file', () => {
    const { streams } = split(
      '1 0 obj << /Length 99 >> stream\nabc\nendstream endobj\n' +
        '2 0 obj << /Length 5 0 R >> stream\ndefg\nendstream endobj\n' +
        '3 0 obj << /Length 999999999999 >> stream\nhij',
    );
    expect(streams.map(([, body]) => body)).toEqual(['abc\n', 'defg\n', 'hij']);
  });

  it('finds a stream at the very start of the bytes and keeps binary bodies byte for byte', () => {
    const body = Buffer.from([0x00, 0xff, 0x0d, 0x0a, 0x80, 0x73]);
    const bytes = Buffer.concat([Buffer.from('stream\n', 'latin1'), body, Buffer.from('endstream', 'latin1')]);
    const [stream] = splitPdf(bytes).streams;
    expect(Buffer.compare(stream!.body, body)).toBe(0);
    expect(stream!.ref).toBeNull();
  });
});
