import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.ts';
import { loadContract } from './document.ts';
import { assertValidKey, requestHash, takesIdempotencyKey } from './idempotency.ts';
import { ApiRouter } from './router.ts';

const contract = loadContract();
const noAuth = async () => {
  throw new Error('not called');
};

/** Builds the routes with only `operationId` bound (every other operation listed as switched off). */
function routesWith(operationId: string, options: { idempotency?: false }) {
  const api = new ApiRouter(contract, noAuth);
  api.operation(operationId as never, options, async () => ({}));
  const others = [...contract.operations.keys()].filter((id) => id !== operationId);
  return () => api.routes(others.map((id) => ({ operationId: id, reason: 'plugin-disabled' as const })));
}

describe('Idempotency-Key in the contract', () => {
  it('is declared on the JSON creates and not on uploads', () => {
    expect(takesIdempotencyKey(contract.operation('createBusinessFlow'))).toBe(true);
    expect(takesIdempotencyKey(contract.operation('createGroup'))).toBe(true);
    expect(takesIdempotencyKey(contract.operation('uploadDocument'))).toBe(false);
    expect(takesIdempotencyKey(contract.operation('listGroups'))).toBe(false);
  });

  it('stops start-up when an operation declaring the header opts out (its response is a secret)', () => {
    expect(routesWith('createGroup', { idempotency: false })).toThrow(
      /createGroup declares Idempotency-Key but opts out/,
    );
    expect(routesWith('createGroup', {})).not.toThrow();
  });
});

describe('requestHash', () => {
  it('is the same for the same JSON with members in another order, and differs for another value', () => {
    const one = requestHash({
      params: { a: '1' },
      query: {},
      body: { data: { type: 'Group', attributes: { name: 'x' } } },
    });
    const same = requestHash({
      params: { a: '1' },
      query: {},
      body: { data: { attributes: { name: 'x' }, type: 'Group' } },
    });
    const other = requestHash({
      params: { a: '1' },
      query: {},
      body: { data: { type: 'Group', attributes: { name: 'y' } } },
    });
    expect(same).toBe(one);
    expect(other).not.toBe(one);
    expect(one).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells a path parameter from the body', () => {
    expect(requestHash({ params: { id: '1' }, query: {}, body: {} })).not.toBe(
      requestHash({ params: { id: '2' }, query: {}, body: {} }),
    );
  });
});

describe('assertValidKey', () => {
  it('takes 1–255 visible ASCII characters and refuses anything else with IDEMPOTENCY_KEY_INVALID', () => {
    for (const key of ['a', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', '~!"#$%&()*+,./:;<=>?@[]^_`{|}', 'x'.repeat(255)])
      expect(() => assertValidKey(key)).not.toThrow();
    for (const key of ['', ' lead', 'in side', 'x'.repeat(256), 'clé', 'tab\t', '改行\n']) {
      expect(() => assertValidKey(key)).toThrow(AppError);
      try {
        assertValidKey(key);
      } catch (error) {
        expect((error as AppError).code).toBe('IDEMPOTENCY_KEY_INVALID');
      }
    }
  });
});
