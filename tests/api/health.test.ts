import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type TestApp } from '../helpers/app.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

describe('health', () => {
  it('answers liveness from the process', async () => {
    const response = await app.api.call('getHealth');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });

  it('reports ready when the database answers and every migration is applied', async () => {
    const response = await app.api.call('getReadiness');
    expect(response.status).toBe(200);
    expect(response.body.checks).toMatchObject({ database: 'ok', migrations: 'ok', 'plugin:mail': 'ok' });
  });

  it('carries a trace id on every response, taken from X-Request-Id when given', async () => {
    const own = await app.api.call('getHealth', { headers: { 'x-request-id': 'trace-from-client-123' } });
    expect(own.headers.get('x-request-id')).toBe('trace-from-client-123');
    const fresh = await app.api.call('getHealth');
    expect(fresh.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
