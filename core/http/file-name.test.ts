import { describe, expect, it } from 'vitest';
import { cleanFileName } from './file-name.ts';

describe('uploaded file names', () => {
  it('lose the right-to-left override that makes "invoice\\u202Efdp.exe" look like a PDF', () => {
    expect(cleanFileName('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
  });

  it('lose every bidi control, mark, zero-width and control character, and keep Japanese text and emoji', () => {
    const hidden = '\u202A\u202B\u202C\u202D\u2066\u2067\u2068\u2069\u200E\u200F\u061C\u200B\uFEFF\u00AD\u0000\n\u2028';
    expect(cleanFileName(`契約${hidden}書 😀.pdf`)).toBe('契約書 😀.pdf');
  });
});
