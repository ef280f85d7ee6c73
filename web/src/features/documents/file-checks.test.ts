import { describe, expect, it } from 'vitest';
import { checkDocumentFile, nameFromFile } from './file-checks.ts';

const pdf = (name: string, size = 0) =>
  new File([new TextEncoder().encode('%PDF-1.7\n'), new Uint8Array(size)], name, { type: 'application/pdf' });

describe('document file checks in the browser', () => {
  it('accepts a PDF by its content', async () => {
    expect(await checkDocumentFile(pdf('contract.pdf'))).toBeNull();
  });

  it('asks for a file when none is chosen (FILE_REQUIRED)', async () => {
    expect(await checkDocumentFile(null)).toEqual({ code: 'FILE_REQUIRED' });
  });

  it('rejects an empty file (FILE_EMPTY)', async () => {
    expect(await checkDocumentFile(new File([], 'empty.pdf'))).toEqual({ code: 'FILE_EMPTY' });
  });

  it('accepts a file of exactly 30 MB (31,457,280 bytes), as the server does', async () => {
    const header = new TextEncoder().encode('%PDF-1.7\n');
    const exact = new File([header, new Uint8Array(30 * 1024 * 1024 - header.length)], 'exact.pdf');
    expect(exact.size).toBe(31_457_280);
    expect(await checkDocumentFile(exact)).toBeNull();
  });

  it('rejects a file over 30 MB (FILE_TOO_LARGE)', async () => {
    expect(await checkDocumentFile(pdf('big.pdf', 30 * 1024 * 1024))).toEqual({
      code: 'FILE_TOO_LARGE',
      params: { maxMb: 30 },
    });
  });

  it('rejects a file name over 100 characters (FILE_NAME_TOO_LONG)', async () => {
    expect(await checkDocumentFile(pdf(`${'a'.repeat(97)}.pdf`))).toEqual({ code: 'FILE_NAME_TOO_LONG' });
  });

  it('rejects a non-PDF renamed .pdf by its content (FILE_TYPE_NOT_ALLOWED)', async () => {
    const exe = new File([new TextEncoder().encode('MZ\x90\x00 not a pdf')], 'setup.pdf');
    expect(await checkDocumentFile(exe)).toEqual({ code: 'FILE_TYPE_NOT_ALLOWED', params: { allowed: 'PDF' } });
  });

  it('suggests the document name from the file name without .pdf', () => {
    expect(nameFromFile('売買契約書.PDF')).toBe('売買契約書');
  });
});
