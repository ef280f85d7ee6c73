import type { components } from '../../../core/contract/api.gen.ts';

export type ErrorCode = components['schemas']['ErrorCode'];
type ErrorObject = components['schemas']['Error'];

/** An API error as the UI sees it: the HTTP status, `errors[0].code`, and for 404 the detail, for 500 the traceId. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'NETWORK_ERROR' | 'UNKNOWN_ERROR';
  readonly detail?: string;
  readonly traceId?: string;
  /** Every error of the response (422 has one per field, each with `source.pointer`). */
  readonly errors: ErrorObject[];

  constructor(status: number, errors: ErrorObject[], fallbackCode: ApiError['code'] = 'UNKNOWN_ERROR') {
    const first = errors[0];
    super(first?.code ?? fallbackCode);
    this.name = 'ApiError';
    this.status = status;
    this.code = first?.code ?? fallbackCode;
    this.errors = errors;
    if (status === 404) this.detail = first?.detail;
    if (status >= 500) this.traceId = first?.traceId;
  }

  /** Field errors keyed by the attribute a pointer names (`/data/attributes/password` -> `password`). */
  fieldErrors(): Record<string, ErrorCode[]> {
    const fields: Record<string, ErrorCode[]> = {};
    for (const error of this.errors) {
      const pointer = error.source?.pointer;
      if (!pointer) continue;
      const name = pointer.replace(/^\/data\/attributes\//, '').replace(/^\/data\/?/, '') || 'data';
      (fields[name] ??= []).push(error.code);
    }
    return fields;
  }
}

function isErrorBody(body: unknown): body is { errors: ErrorObject[] } {
  return typeof body === 'object' && body !== null && Array.isArray((body as { errors?: unknown }).errors);
}

/** The one error mapper all three clients share: any non-2xx body becomes an ApiError. */
export function toApiError(status: number, body: unknown): ApiError {
  return new ApiError(status, isErrorBody(body) ? body.errors : []);
}

/** Binary downloads: the error arrives as a Blob, so its JSON is read from the body first. */
export async function toApiErrorFromBlob(status: number, body: Blob): Promise<ApiError> {
  try {
    return toApiError(status, JSON.parse(await body.text()));
  } catch {
    return toApiError(status, null);
  }
}

/** Turns openapi-fetch's `{ data, error, response }` into data, or throws the mapped ApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) throw toApiError(result.response.status, result.error);
  return result.data as T;
}

/** Codes that say only "it did not work": a 5xx without a more telling code, a network failure, an unknown error. */
const GENERIC_FAILURES: ReadonlySet<string> = new Set([
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
  'NETWORK_ERROR',
  'UNKNOWN_ERROR',
]);

/**
 * Whether a failure gets the spec's generic message "Failed to {action}. If the error persists after retrying,
 * refer to the customer portal site." (spec §8) instead of a code's own: a 5xx or network failure that names no
 * more telling code (a 503 TSA_UNAVAILABLE keeps its own "try again later"), or anything not an API error.
 */
export function isGenericFailure(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return (error.status >= 500 || error.status === 0) && GENERIC_FAILURES.has(error.code);
}

/** The refusal of a write made under permissions that changed since the screen read them (spec §6, §8). */
export function isPermissionsChanged(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'PERMISSIONS_CHANGED';
}

let seenPermissionsVersion: string | null = null;

/** Remembers the permissions version GET /me returned; writes send it back as X-Permissions-Version. */
export function rememberPermissionsVersion(version: string | null | undefined): void {
  seenPermissionsVersion = version ?? null;
}

/** The permissions version the screens were built with, or null before GET /me answered. */
export function permissionsVersionSeen(): string | null {
  return seenPermissionsVersion;
}
