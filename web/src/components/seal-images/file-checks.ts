// Checks made in the browser before an upload, with the codes the server would answer (errors.json). Shared by the
// seal image manager (settings and account screens) and the e-certificate screen.

export interface FileProblem {
  code: 'FILE_REQUIRED' | 'FILE_EMPTY' | 'FILE_TOO_LARGE' | 'FILE_TYPE_NOT_ALLOWED';
  params?: Record<string, string | number>;
}

/** Seal images: PNG, JPEG or GIF of at most 1 MB (the server decides by content; this catches the obvious). */
export const SEAL_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif'] as const;
export const SEAL_IMAGE_MAX_BYTES = 1024 * 1024;
/** A seal image's name, at most 50 characters. */
export const SEAL_NAME_MAX = 50;

/** A missing, empty or too large file. */
export function sizeProblem(file: File | null, maxBytes: number): FileProblem | null {
  if (!file) return { code: 'FILE_REQUIRED' };
  if (file.size === 0) return { code: 'FILE_EMPTY' };
  if (file.size > maxBytes) return { code: 'FILE_TOO_LARGE', params: { maxMb: maxBytes / 1024 / 1024 } };
  return null;
}

export function sealImageProblem(file: File | null): FileProblem | null {
  const size = sizeProblem(file, SEAL_IMAGE_MAX_BYTES);
  if (size || !file) return size;
  const byName = /\.(png|jpe?g|gif)$/i.test(file.name);
  if (!(SEAL_IMAGE_TYPES as readonly string[]).includes(file.type) && !byName) {
    return { code: 'FILE_TYPE_NOT_ALLOWED', params: { allowed: 'PNG, JPEG, GIF' } };
  }
  return null;
}

/** A byte count as people read it. */
export function fileSize(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
