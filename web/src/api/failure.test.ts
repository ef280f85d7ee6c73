import { describe, expect, it } from 'vitest';
import { ApiError, isGenericFailure, isPermissionsChanged, toApiError } from './errors.ts';

const body = (status: number, code: string) => ({
  errors: [{ status: String(status), code, title: code, detail: code, traceId: 't' }],
});

describe('the generic "Failed to {action}" failures (spec §8)', () => {
  it('covers 5xx without a telling code, network failures and errors that are not API errors', () => {
    expect(isGenericFailure(toApiError(500, body(500, 'INTERNAL_ERROR')))).toBe(true);
    expect(isGenericFailure(toApiError(503, body(503, 'SERVICE_UNAVAILABLE')))).toBe(true);
    expect(isGenericFailure(toApiError(502, null))).toBe(true);
    expect(isGenericFailure(new ApiError(0, [], 'NETWORK_ERROR'))).toBe(true);
    expect(isGenericFailure(new TypeError('boom'))).toBe(true);
  });

  it('keeps the own message of refusals and of 5xx codes that say what to do', () => {
    expect(isGenericFailure(toApiError(409, body(409, 'UPDATED_BY_ANOTHER_USER')))).toBe(false);
    expect(isGenericFailure(toApiError(403, body(403, 'PLAN_FEATURE_UNAVAILABLE')))).toBe(false);
    expect(isGenericFailure(toApiError(503, body(503, 'TSA_UNAVAILABLE')))).toBe(false);
  });

  it('tells PERMISSIONS_CHANGED apart (the notice offers a page reload)', () => {
    expect(isPermissionsChanged(toApiError(409, body(409, 'PERMISSIONS_CHANGED')))).toBe(true);
    expect(isPermissionsChanged(toApiError(409, body(409, 'UPDATED_BY_ANOTHER_USER')))).toBe(false);
  });
});
