import { describe, expect, it } from 'vitest';
import { errorBody } from '../testing/fixtures.ts';
import { ApiError, toApiError, toApiErrorFromBlob, unwrap } from './errors.ts';

describe('toApiError (the mapper all three clients share)', () => {
  it('maps 401 with its status and errors[0].code', () => {
    const error = toApiError(401, errorBody(401, 'UNAUTHENTICATED'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(Error);
    expect(error.status).toBe(401);
    expect(error.code).toBe('UNAUTHENTICATED');
    expect(error.message).toBe('UNAUTHENTICATED');
    expect(error.detail).toBeUndefined();
    expect(error.traceId).toBeUndefined();
  });

  it('maps 403 with its status and errors[0].code (permission or IP restriction)', () => {
    expect(toApiError(403, errorBody(403, 'FORBIDDEN'))).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(toApiError(403, errorBody(403, 'IP_RESTRICTED'))).toMatchObject({ status: 403, code: 'IP_RESTRICTED' });
  });

  it('gives detail for 404', () => {
    const error = toApiError(404, errorBody(404, 'NOT_FOUND', { detail: 'No business flow bf-1.' }));
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', detail: 'No business flow bf-1.' });
    expect(error.traceId).toBeUndefined();
  });

  it('gives traceId for 500', () => {
    const error = toApiError(500, errorBody(500, 'INTERNAL_ERROR', { traceId: '4bf92f3577b34da6' }));
    expect(error).toMatchObject({ status: 500, code: 'INTERNAL_ERROR', traceId: '4bf92f3577b34da6' });
    expect(error.detail).toBeUndefined();
  });

  it('takes the code of the first error when there are several', () => {
    const body = {
      errors: [...errorBody(422, 'PASSWORD_TOO_SHORT').errors, ...errorBody(422, 'PASSWORD_REQUIRES_DIGIT').errors],
    };
    expect(toApiError(422, body).code).toBe('PASSWORD_TOO_SHORT');
  });

  it('gives field errors keyed by the attribute the pointer names', () => {
    const body = {
      errors: [
        ...errorBody(422, 'PASSWORD_TOO_SHORT', { source: { pointer: '/data/attributes/password' } }).errors,
        ...errorBody(422, 'PASSWORD_REQUIRES_DIGIT', { source: { pointer: '/data/attributes/password' } }).errors,
        ...errorBody(422, 'LOGIN_ID_TAKEN', { source: { pointer: '/data/attributes/loginId' } }).errors,
        ...errorBody(422, 'MALFORMED_REQUEST', { source: { pointer: '/data' } }).errors,
        ...errorBody(422, 'VALIDATION_FAILED').errors,
      ],
    };
    const error = toApiError(422, body);
    expect(error.code).toBe('PASSWORD_TOO_SHORT');
    expect(error.errors).toHaveLength(5);
    expect(error.fieldErrors()).toEqual({
      password: ['PASSWORD_TOO_SHORT', 'PASSWORD_REQUIRES_DIGIT'],
      loginId: ['LOGIN_ID_TAKEN'],
      data: ['MALFORMED_REQUEST'],
    });
  });

  it('falls back to UNKNOWN_ERROR with the status when the body is not an error document', () => {
    for (const body of [null, undefined, 'Bad Gateway', { message: 'x' }, { errors: 'no' }, { errors: [] }]) {
      const error = toApiError(502, body);
      expect(error).toMatchObject({ status: 502, code: 'UNKNOWN_ERROR', errors: [] });
      expect(error.traceId).toBeUndefined();
    }
  });
});

describe('toApiErrorFromBlob (binary downloads)', () => {
  it('parses the error document out of a Blob body', async () => {
    const blob = new Blob([JSON.stringify(errorBody(404, 'NOT_FOUND', { detail: 'No such document.' }))], {
      type: 'application/json',
    });
    await expect(toApiErrorFromBlob(404, blob)).resolves.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
      detail: 'No such document.',
    });
    const serverError = new Blob([JSON.stringify(errorBody(500, 'INTERNAL_ERROR', { traceId: 't-9' }))]);
    await expect(toApiErrorFromBlob(500, serverError)).resolves.toMatchObject({
      code: 'INTERNAL_ERROR',
      traceId: 't-9',
    });
  });

  it('gives UNKNOWN_ERROR with the status when the Blob is not JSON', async () => {
    const blob = new Blob([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0xff])], { type: 'application/pdf' });
    await expect(toApiErrorFromBlob(500, blob)).resolves.toMatchObject({ status: 500, code: 'UNKNOWN_ERROR' });
  });
});

describe('unwrap', () => {
  it('returns the data of a successful answer', () => {
    expect(unwrap({ data: { id: 1 }, response: new Response(null, { status: 200 }) })).toEqual({ id: 1 });
    expect(unwrap({ data: undefined, response: new Response(null, { status: 204 }) })).toBeUndefined();
  });

  it('throws the mapped ApiError of a failed answer', () => {
    const answer = { error: errorBody(409, 'UPDATED_BY_ANOTHER_USER'), response: new Response(null, { status: 409 }) };
    expect(() => unwrap(answer)).toThrow(ApiError);
    expect(() => unwrap(answer)).toThrow(expect.objectContaining({ status: 409, code: 'UPDATED_BY_ANOTHER_USER' }));
  });

  it('throws for a non-2xx answer even without an error body', () => {
    expect(() => unwrap({ response: new Response(null, { status: 503 }) })).toThrow(
      expect.objectContaining({ status: 503, code: 'UNKNOWN_ERROR' }),
    );
  });
});
