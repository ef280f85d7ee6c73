import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { CORPUS, eicar, oversizedFile } from '../../tests/fixtures/malicious/corpus.ts';
import { buildPdf, cleanPdf, onePageObjects } from '../../tests/fixtures/malicious/pdf-builder.ts';
import type { ErrorCode } from '../http/errors.ts';
import { inspectUpload, type UploadKind } from './inspect.ts';
import { scanPdf } from './pdf-scan.ts';
import { detectExecutable } from './signatures.ts';

const PDF_ONLY: readonly UploadKind[] = ['pdf'];
const ANY: readonly UploadKind[] = ['pdf', 'csv', 'png', 'jpeg', 'gif'];

async function refusal(bytes: Buffer, allowed = PDF_ONLY, fileName = 'file.pdf'): Promise<{ code: ErrorCode }> {
  try {
    await inspectUpload(bytes, { fileName, allowed });
  } catch (error) {
    return error as { code: ErrorCode };
  }
  throw new Error('the file was accepted');
}

describe('inspectUpload', () => {
  it('accepts a clean one-page PDF as application/pdf with its page count', async () => {
    await expect(inspectUpload(cleanPdf(), { fileName: 'a.pdf', allowed: PDF_ONLY })).resolves.toEqual({
      kind: 'pdf',
      contentType: 'application/pdf',
      pageCount: 1,
      encrypted: false,
    });
  });

  it('opens a PDF encrypted with the empty user password only where the caller allows it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'keiyaku-inspect-'));
    const encrypt = (userPassword: string) => {
      writeFileSync(path.join(dir, 'in.pdf'), cleanPdf());
      execFileSync('qpdf', ['--encrypt', userPassword, 'owner', '256', '--', `${dir}/in.pdf`, `${dir}/out.pdf`]);
      return readFileSync(path.join(dir, 'out.pdf'));
    };
    try {
      const open = encrypt('');
      await expect(inspectUpload(open, { fileName: 'a.pdf', allowed: PDF_ONLY })).rejects.toMatchObject({
        code: 'FILE_PASSWORD_PROTECTED',
      });
      await expect(
        inspectUpload(open, { fileName: 'a.pdf', allowed: PDF_ONLY, openWithEmptyPassword: true }),
      ).resolves.toMatchObject({ kind: 'pdf', pageCount: 1, encrypted: true });
      const locked = encrypt('user-secret');
      await expect(
        inspectUpload(locked, { fileName: 'a.pdf', allowed: PDF_ONLY, openWithEmptyPassword: true }),
      ).rejects.toMatchObject({ code: 'FILE_PASSWORD_PROTECTED' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const entry of CORPUS) {
    it(`refuses ${entry.name} (${entry.code})`, async () => {
      expect((await refusal(await entry.bytes(), ANY, entry.fileName)).code).toBe(entry.code);
    });
  }

  it('decides by content, not by extension: a PNG named .pdf is a PNG (FILE_TYPE_NOT_ALLOWED for PDF only)', async () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
    const error = (await refusal(png, PDF_ONLY, 'scan.pdf')) as { code: ErrorCode; params: { allowed: string } };
    expect(error.code).toBe('FILE_TYPE_NOT_ALLOWED');
    expect(error.params.allowed).toBe('PDF');
    await expect(inspectUpload(png, { fileName: 'scan.pdf', allowed: ANY })).resolves.toMatchObject({ kind: 'png' });
  });

  it('recognises JPEG, GIF and CSV (UTF-8 and Shift_JIS) where the place allows them', async () => {
    const kindOf = async (bytes: Buffer) => (await inspectUpload(bytes, { fileName: 'x', allowed: ANY })).kind;
    expect(await kindOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpeg');
    expect(await kindOf(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('gif');
    expect(await kindOf(Buffer.from('name,amount\n契約,1000\n', 'utf8'))).toBe('csv');
    expect(await kindOf(Buffer.from([0x82, 0xa0, 0x2c, 0x31, 0x0a]))).toBe('csv'); // "あ,1" in Shift_JIS
  });

  it('refuses binary data that is no known kind (FILE_TYPE_NOT_ALLOWED)', async () => {
    expect((await refusal(Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe]), ANY)).code).toBe('FILE_TYPE_NOT_ALLOWED');
  });

  it('refuses a CSV where only PDFs are allowed (FILE_TYPE_NOT_ALLOWED)', async () => {
    expect((await refusal(Buffer.from('a,b\n1,2\n'), PDF_ONLY, 'data.pdf')).code).toBe('FILE_TYPE_NOT_ALLOWED');
  });

  it('refuses Mach-O, Java class, shebang scripts and MSI packages as executables (FILE_EXECUTABLE)', async () => {
    for (const head of [
      [0xcf, 0xfa, 0xed, 0xfe],
      [0xca, 0xfe, 0xba, 0xbe],
      [0x23, 0x21, 0x2f],
      [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1],
    ]) {
      const bytes = Buffer.concat([Buffer.from(head), Buffer.alloc(64, 0x41)]);
      expect(detectExecutable(bytes)).not.toBeNull();
      expect((await refusal(bytes, ANY)).code).toBe('FILE_EXECUTABLE');
    }
  });

  it('finds the EICAR string anywhere, even in the middle of a PDF (FILE_MALWARE_DETECTED)', async () => {
    const pdf = buildPdf([...onePageObjects(), { dict: '', stream: eicar() }]);
    expect((await refusal(pdf)).code).toBe('FILE_MALWARE_DETECTED');
  });

  it('refuses a PDF with no pages (FILE_CORRUPTED)', async () => {
    const pdf = buildPdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);
    expect((await refusal(pdf)).code).toBe('FILE_CORRUPTED');
  });

  it('refuses garbage after a PDF header (FILE_CORRUPTED)', async () => {
    expect((await refusal(Buffer.from('%PDF-1.7\nthis is not a pdf\n%%EOF\n'))).code).toBe('FILE_CORRUPTED');
  });

  it('does not mistake "/JavaScript" inside a literal string or a content stream for an action', async () => {
    const pdf = buildPdf(onePageObjects('see https://example.com/JavaScript/guide', '/Lang (en/JS) '));
    await expect(inspectUpload(pdf, { fileName: 'a.pdf', allowed: PDF_ONLY })).resolves.toMatchObject({ pageCount: 1 });
  });

  it('looks inside ASCIIHex + Flate filter chains of object streams', () => {
    const hidden = deflateSync(Buffer.from('6 0 << /S /Launch /F (x) >>', 'latin1'));
    const pdf = buildPdf([
      ...onePageObjects(),
      {
        dict: '/Type /ObjStm /N 1 /First 4 /Filter [/ASCIIHexDecode /FlateDecode]',
        stream: Buffer.from(`${hidden.toString('hex')}>`),
      },
    ]);
    expect(scanPdf(pdf).activeContent).toMatch(/Launch/);
  });

  it('inspects a 30 MB PDF within a few seconds', async () => {
    const padding = oversizedFile(30).subarray(0, 30 * 1024 * 1024 - 4096);
    const pdf = buildPdf([
      ...onePageObjects(),
      { dict: '', stream: Buffer.from(deflateSync(padding)) },
      { dict: '/Type /XObject /Subtype /Image /Width 1 /Height 1', stream: padding },
    ]);
    const started = performance.now();
    const result = await inspectUpload(pdf, { fileName: 'big.pdf', allowed: PDF_ONLY });
    const elapsed = performance.now() - started;
    expect(result.pageCount).toBe(1);
    expect(elapsed).toBeLessThan(10_000);
  });
});
