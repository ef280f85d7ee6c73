import { describe, expect, it } from 'vitest';
import { certificateProblem, fileSize, sealImageProblem } from './file-checks.ts';

const file = (name: string, size: number, type = '') => new File([new Uint8Array(size)], name, { type });

describe('seal image checks', () => {
  it('accepts a PNG, JPEG or GIF up to 1 MB', () => {
    expect(sealImageProblem(file('hanko.png', 2000, 'image/png'))).toBeNull();
    expect(sealImageProblem(file('hanko.JPG', 2000))).toBeNull();
    expect(sealImageProblem(file('hanko.gif', 1024 * 1024, 'image/gif'))).toBeNull();
  });

  it('names what is wrong otherwise', () => {
    expect(sealImageProblem(null)).toEqual({ code: 'FILE_REQUIRED' });
    expect(sealImageProblem(file('hanko.png', 0, 'image/png'))).toEqual({ code: 'FILE_EMPTY' });
    expect(sealImageProblem(file('hanko.png', 1024 * 1024 + 1, 'image/png'))).toEqual({
      code: 'FILE_TOO_LARGE',
      params: { maxMb: 1 },
    });
    expect(sealImageProblem(file('hanko.svg', 100, 'image/svg+xml'))?.code).toBe('FILE_TYPE_NOT_ALLOWED');
  });
});

describe('e-certificate checks', () => {
  it('accepts a .p12 or .pfx file up to 1 MB and refuses anything else', () => {
    expect(certificateProblem(file('me.p12', 3000))).toBeNull();
    expect(certificateProblem(file('me.PFX', 3000))).toBeNull();
    expect(certificateProblem(file('me.pem', 3000))?.code).toBe('FILE_TYPE_NOT_ALLOWED');
    expect(certificateProblem(file('me.p12', 2 * 1024 * 1024))?.code).toBe('FILE_TOO_LARGE');
  });
});

describe('fileSize', () => {
  it('shows kilobytes below a megabyte and megabytes above', () => {
    expect(fileSize(100)).toBe('1 KB');
    expect(fileSize(20_480)).toBe('20 KB');
    expect(fileSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
  });
});
