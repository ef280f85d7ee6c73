import { toApiError, toApiErrorFromBlob } from './errors.ts';

/** The file name of Content-Disposition (`filename*` first), or a fallback. */
export function fileNameOf(header: string | null, fallback: string): string {
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header ?? '');
  if (extended) return decodeURIComponent(extended[1]!);
  return /filename="?([^";]+)"?/.exec(header ?? '')?.[1] ?? fallback;
}

/**
 * The file of a download request made with openapi-fetch's `parseAs: 'blob'`: its Blob and the file name the server
 * proposes (`fallback` without one). A failure throws its ApiError; openapi-fetch usually parses the error body as
 * JSON whatever parseAs says, a Blob error body is read here.
 */
export async function downloadedFile(
  result: { data?: unknown; error?: unknown; response: Response },
  fallback: string,
): Promise<{ blob: Blob; fileName: string }> {
  if (!result.response.ok || !result.data) {
    throw result.error instanceof Blob
      ? await toApiErrorFromBlob(result.response.status, result.error)
      : toApiError(result.response.status, result.error);
  }
  return {
    blob: result.data as Blob,
    fileName: fileNameOf(result.response.headers.get('content-disposition'), fallback),
  };
}

/** Saves a Blob as the browser's download, through a temporary link. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
