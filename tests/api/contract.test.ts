import { describe, expect, it } from 'vitest';
import { loadContract } from '../../core/contract/document.ts';
import { pipelineStatuses, undeclaredPipelineStatuses } from '../../core/contract/pipeline-statuses.ts';
import { ERROR_CATALOGUE } from '../../core/http/errors.ts';
import { ContractViolation, TestClient } from '../helpers/client.ts';

const contract = loadContract();

describe('the contract', () => {
  it('names every operation with a unique camelCase operationId', () => {
    const ids = [...contract.operations.keys()];
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z][a-zA-Z0-9]*$/);
    for (const fixed of ['signIn', 'refreshAuth', 'signOut', 'signUp', 'getCurrentTerms']) expect(ids).toContain(fixed);
  });

  it('fixes the sign-in operations at the paths the spec gives', () => {
    expect(contract.operation('signIn')).toMatchObject({
      method: 'POST',
      path: '/auth',
      base: '/core/v1',
      authenticated: false,
    });
    expect(contract.operation('refreshAuth')).toMatchObject({ method: 'PATCH', path: '/auth', authenticated: false });
    expect(contract.operation('signOut')).toMatchObject({ method: 'DELETE', path: '/auth', authenticated: true });
    expect(contract.operation('signUp')).toMatchObject({ method: 'POST', path: '/signup', authenticated: false });
    expect(contract.operation('getCurrentTerms')).toMatchObject({
      method: 'GET',
      path: '/terms/current',
      authenticated: false,
    });
  });

  it('lists exactly the error codes of the server catalogue, each with a ja and an en message', () => {
    const schemas = (contract.document.components as { schemas: Record<string, { enum: string[] }> }).schemas;
    expect([...schemas.ErrorCode!.enum].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
    for (const definition of Object.values(ERROR_CATALOGUE)) {
      expect(definition.ja.length).toBeGreaterThan(0);
      expect(definition.en.length).toBeGreaterThan(0);
    }
  });

  it('validates and coerces query and path parameters whose schema is a $ref to a component', () => {
    const query = contract.parameterValidator(contract.operation('listUsers'), 'query');
    const good: Record<string, unknown> = { 'filter[status]': 'active', 'page[size]': '5' };
    expect(query(good)).toBe(true);
    expect(good['page[size]']).toBe(5);
    expect(query({ 'filter[status]': 'archived' })).toBe(false);
    const scoped: Record<string, unknown> = { 'filter[scope]': '20' };
    expect(contract.parameterValidator(contract.operation('listProperties'), 'query')(scoped)).toBe(true);
    expect(scoped['filter[scope]']).toBe(20);
    const path = contract.parameterValidator(contract.operation('getMailTemplate'), 'path');
    expect(path({ kind: 'welcome', locale: 'en' })).toBe(true);
    expect(path({ kind: 'no-such-kind', locale: 'en' })).toBe(false);
  });

  it('fails a test that receives a response the contract does not describe', () => {
    const client = new TestClient('http://unused');
    const stale = { data: { type: 'Auth', attributes: { accessToken: 'renamed field' } } };
    expect(() => client.check('signIn', 201, 'application/json', stale)).toThrow(ContractViolation);
    expect(() => client.check('signIn', 418, 'application/json', {})).toThrow(/not declared/);
    const error = { errors: [{ status: '401', code: 'NOT_A_CODE', title: 't', detail: 'd', traceId: 'x' }] };
    expect(() => client.check('signIn', 401, 'application/vnd.api+json', error)).toThrow(ContractViolation);
    const fresh = { data: { type: 'Auth', attributes: { authorizationToken: 'a', refreshToken: 'r' } } };
    expect(() => client.check('signIn', 201, 'application/json', fresh)).not.toThrow();
  });
  it('declares on every operation each status the shared pipeline can answer (auth, validation, body readers, 500)', () => {
    const gaps = [...contract.operations.values()]
      .map((op) => ({ operationId: op.operationId, undeclared: undeclaredPipelineStatuses(op) }))
      .filter((gap) => gap.undeclared.length > 0);
    expect(gaps).toEqual([]);
    expect(pipelineStatuses(contract.operation('signIn'), { rateLimited: true })).toEqual([
      '400',
      '413',
      '415',
      '422',
      '429',
      '500',
    ]);
    expect(pipelineStatuses(contract.operation('getMailTemplate'))).toEqual(['401', '403', '404', '422', '500']);
  });
});
