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
