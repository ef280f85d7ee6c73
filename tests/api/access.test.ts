import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../core/contract/document.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { memberToken, PASSWORD, signedInOwner, signInBody } from '../helpers/accounts.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const ipList = (...cidrs: string[]) => ({
  data: cidrs.map((cidr) => ({ type: 'IpRestriction', attributes: { cidr } })),
});

describe('plan features', () => {
  it('refuses a feature the free plan lacks with 403 PLAN_FEATURE_UNAVAILABLE', async () => {
    const { token } = await signedInOwner(app);
    const response = await app.api.call('listIpRestrictions', { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('PLAN_FEATURE_UNAVAILABLE');
  });

  it('opens the feature on the standard plan', async () => {
    const { token } = await signedInOwner(app, { plan: 'standard' });
    const response = await app.api.call('listIpRestrictions', { token });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta.maxEntries).toBe(100);
  });
});

describe('permissions', () => {
  it('refuses an administrator-only operation to a member with 403 FUNCTION_NOT_PERMITTED', async () => {
    const org = await signedInOwner(app, { plan: 'standard' });
    const token = await memberToken(app, org.organizationId);
    const response = await app.api.call('listIpRestrictions', { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
    expect(response.body.errors[0].meta.messages.en).toBe('You do not have permission to use this function.');
  });
});

describe('IP restriction', () => {
  it('allows requests from a listed range and refuses others with 403 IP_RESTRICTED on every authenticated route', async () => {
    const { token } = await signedInOwner(app, { plan: 'standard', signInHeaders: from('203.0.113.7') });
    const saved = await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('203.0.113.0/24', '198.51.100.10'),
      headers: from('203.0.113.7'),
    });
    expect(saved.status).toBe(200);
    expect(saved.body.data.map((e: { attributes: { cidr: string } }) => e.attributes.cidr)).toEqual([
      '198.51.100.10/32',
      '203.0.113.0/24',
    ]);

    expect((await app.api.call('getCurrentUser', { token, headers: from('203.0.113.200') })).status).toBe(200);
    expect((await app.api.call('getCurrentUser', { token, headers: from('198.51.100.10') })).status).toBe(200);
    const denied = await app.api.call('getCurrentUser', { token, headers: from('192.0.2.1') });
    expect(denied.status).toBe(403);
    expect(denied.body.errors[0].code).toBe('IP_RESTRICTED');
    expect(denied.body.errors[0].meta.messages.en).toBe('You cannot access from your IP address.');
    const signOutDenied = await app.api.call('signOut', { token, headers: from('192.0.2.1') });
    expect(signOutDenied.body.errors[0].code).toBe('IP_RESTRICTED');
  });

  it('refuses every authenticated operation of the contract from an unlisted address, downloads included', async () => {
    const { token } = await signedInOwner(app, { plan: 'professional', signInHeaders: from('203.0.113.7') });
    await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('203.0.113.0/24'),
      headers: from('203.0.113.7'),
    });
    // Guests belong to no organization: its IP list is not theirs (guest operations answer 401 to a member's token).
    const operations = [...loadContract().operations.values()].filter((op) => op.authenticated && !op.guest);
    expect(operations.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['downloadOperationLogs', 'downloadSignRecords', 'exportUsersCsv', 'listUsers']),
    );
    for (const op of operations) {
      const params = Object.fromEntries(
        op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, randomUUID()]),
      );
      const response = await app.api.call(op.operationId as never, { token, params, headers: from('192.0.2.1') });
      expect([response.status, response.body?.errors?.[0]?.code], op.operationId).toEqual([403, 'IP_RESTRICTED']);
    }
  });

  it('refuses sign-in from an address outside the list', async () => {
    const { token, ...org } = await signedInOwner(app, { plan: 'standard', signInHeaders: from('203.0.113.7') });
    await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('203.0.113.0/24'),
      headers: from('203.0.113.7'),
    });
    const response = await app.api.call('signIn', {
      body: signInBody(org.loginId, PASSWORD),
      headers: from('192.0.2.1'),
    });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('IP_RESTRICTED');
  });

  it('requires the first registration to include the caller’s own address', async () => {
    const { token, ...org } = await signedInOwner(app, { plan: 'standard', signInHeaders: from('203.0.113.7') });
    const response = await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('10.0.0.0/8'),
      headers: from('203.0.113.7'),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0]).toMatchObject({
      code: 'IP_RESTRICTION_EXCLUDES_OWN_IP',
      source: { pointer: '/data' },
    });
    const rows = await app.service.deps.knex('ip_restrictions').where({ organization_id: org.organizationId });
    expect(rows).toHaveLength(0);
  });

  it('refuses to remove the caller’s own address from the list', async () => {
    const { token } = await signedInOwner(app, { plan: 'standard', signInHeaders: from('203.0.113.7') });
    await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('203.0.113.7', '10.0.0.0/8'),
      headers: from('203.0.113.7'),
    });
    const response = await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('10.0.0.0/8'),
      headers: from('203.0.113.7'),
    });
    expect(response.body.errors[0].code).toBe('IP_RESTRICTION_EXCLUDES_OWN_IP');
    const kept = await app.api.call('listIpRestrictions', { token, headers: from('203.0.113.7') });
    expect(kept.body.data).toHaveLength(2);
  });

  it('reports each malformed entry at its own pointer', async () => {
    const { token } = await signedInOwner(app, { plan: 'standard' });
    const response = await app.api.call('replaceIpRestrictions', {
      token,
      body: ipList('127.0.0.1', '300.1.1.1', '10.0.0.0/33', 'fe80::1'),
    });
    expect(response.status).toBe(422);
    expect(
      response.body.errors.map((e: { code: string; source: { pointer: string } }) => [e.code, e.source.pointer]),
    ).toEqual([
      ['IP_RESTRICTION_INVALID', '/data/1/attributes/cidr'],
      ['IP_RESTRICTION_INVALID', '/data/2/attributes/cidr'],
      ['IP_RESTRICTION_INVALID', '/data/3/attributes/cidr'],
    ]);
  });

  it('logs each change of the list with what it was and what it became', async () => {
    const { token, ...org } = await signedInOwner(app, { plan: 'standard' });
    await app.api.call('replaceIpRestrictions', { token, body: ipList('127.0.0.1') });
    const log = await app.service.deps
      .knex('operation_logs')
      .where({ organization_id: org.organizationId, action: 'organization.ip_restrictions_replaced' })
      .first();
    expect(log.details).toEqual({ before: [], after: ['127.0.0.1/32'] });
  });
});

describe('error model', () => {
  it('answers an unknown route with 404 ROUTE_NOT_FOUND in JSON:API form with the trace id', async () => {
    const response = await fetch(`${app.url}/core/v1/no-such-thing`, {
      headers: { 'x-request-id': 'trace-404-abcdef' },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('x-request-id')).toBe('trace-404-abcdef');
    const body = (await response.json()) as { errors: { code: string }[] };
    expect(body.errors[0]).toMatchObject({ status: '404', code: 'ROUTE_NOT_FOUND', traceId: 'trace-404-abcdef' });
  });

  it('answers malformed JSON with 400 MALFORMED_REQUEST', async () => {
    const response = await fetch(`${app.url}/core/v1/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"data":',
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('MALFORMED_REQUEST');
  });

  it('answers a body that breaks the contract with 422 and a pointer per field', async () => {
    const response = await app.api.call('signIn', {
      body: { data: { type: 'Auth', attributes: { loginId: 'x', extra: 1 } } },
    });
    expect(response.status).toBe(422);
    const pointers = response.body.errors.map((e: { source: { pointer: string } }) => e.source.pointer).sort();
    expect(pointers).toEqual(['/data/attributes/extra', '/data/attributes/password']);
  });

  it('answers a missing or forged bearer token with 401', async () => {
    expect((await app.api.call('getCurrentUser')).body.errors[0].code).toBe('UNAUTHENTICATED');
    const forged = await app.api.call('getCurrentUser', { token: 'eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl' });
    expect(forged.status).toBe(401);
    expect(forged.body.errors[0].code).toBe('UNAUTHENTICATED');
  });

  it('hides the cause of a 500 and tells only the trace id', async () => {
    const failing = await startApp();
    try {
      const { token } = await signedInOwner(failing);
      // A real failure: the table the authenticator reads is gone.
      await failing.service.deps.knex.raw('DROP TABLE ip_restrictions');
      const response = await failing.api.call('getCurrentUser', { token });
      expect(response.status).toBe(500);
      const [error] = response.body.errors;
      expect(error.code).toBe('INTERNAL_ERROR');
      expect(error.traceId).toBe(response.headers.get('x-request-id'));
      expect(JSON.stringify(response.body)).not.toMatch(/ip_restrictions|relation|stack|at /);
    } finally {
      await failing.close();
    }
  });
});
