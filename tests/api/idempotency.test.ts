/*
 * Idempotency-Key on creating operations (core/contract/idempotency.ts): a retry creates once and answers the kept
 * response, a different request with the same key is refused, a key in use answers 409, organizations do not share
 * keys, failures are not kept, and a key expires after 24 hours.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_TTL_MS } from '../../core/contract/idempotency.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { signIn } from '../helpers/accounts.ts';
import { createWorkspace } from '../helpers/workspaces.ts';
import { type AdminSession, adminSession } from '../helpers/org-admin.ts';

let app: TestApp;
let a: AdminSession;
let b: AdminSession;
beforeAll(async () => {
  app = await startApp();
  a = await adminSession(app, { organizationName: '冪等株式会社', plan: 'professional' });
  b = await adminSession(app, { organizationName: '別冪等株式会社' });
});
afterAll(() => app.close());

const groupBody = (name: string, systemLinkId?: string) => ({
  data: { type: 'Group', attributes: { name, ...(systemLinkId ? { systemLinkId } : {}) } },
});

function createGroup(session: AdminSession, body: unknown, key?: string) {
  return app.api.call('createGroup', {
    token: session.token,
    body,
    headers: key === undefined ? {} : { 'Idempotency-Key': key },
  });
}

async function groupsNamed(organizationId: string, name: string) {
  return app.service.deps.knex('groups').where({ organization_id: organizationId, name }).count({ n: '*' }).first();
}
const count = async (organizationId: string, name: string) => Number((await groupsNamed(organizationId, name))!.n);

describe('Idempotency-Key', () => {
  it('creates once and answers a retry with the same response and Idempotency-Replayed: true', async () => {
    const key = randomUUID();
    const first = await createGroup(a, groupBody('営業一課'), key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-replayed')).toBeNull();
    const retry = await createGroup(a, groupBody('営業一課'), key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    expect(await count(a.organizationId, '営業一課')).toBe(1);
  });

  it('treats the same JSON with its members in another order as the same request', async () => {
    const key = randomUUID();
    const body = { data: { type: 'Group', attributes: { name: '順序', systemLinkId: 'ORDER-1' } } };
    const reordered = { data: { attributes: { systemLinkId: 'ORDER-1', name: '順序' }, type: 'Group' } };
    expect((await createGroup(a, body, key)).status).toBe(201);
    const retry = await createGroup(a, reordered, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(await count(a.organizationId, '順序')).toBe(1);
  });

  it('refuses the same key with a different body with 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    expect((await createGroup(a, groupBody('経理課'), key)).status).toBe(201);
    const other = await createGroup(a, groupBody('総務課'), key);
    expect(other.status).toBe(422);
    expect(other.body.errors[0].code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await count(a.organizationId, '総務課')).toBe(0);
  });

  it('answers 409 IDEMPOTENCY_KEY_IN_PROGRESS while the first request with the key still runs', async () => {
    const key = randomUUID();
    const first = await createGroup(a, groupBody('処理中'), key);
    expect(first.status).toBe(201);
    // The row of a request still running (as the store writes it before the handler runs).
    await app.service.deps
      .knex('idempotency_keys')
      .where({ organization_id: a.organizationId, key })
      .update({ state: 'running', response_status: null, response_body: null });
    const retry = await createGroup(a, groupBody('処理中'), key);
    expect(retry.status).toBe(409);
    expect(retry.body.errors[0].code).toBe('IDEMPOTENCY_KEY_IN_PROGRESS');
    expect(await count(a.organizationId, '処理中')).toBe(1);
  });

  it('lets a retry take over a key a crashed request left running once its lock lapsed', async () => {
    const key = randomUUID();
    const first = await createGroup(a, groupBody('中断'), key);
    expect(first.status).toBe(201);
    // As if the process died after the create and before keeping the response (and the create rolled back).
    await app.service.deps.knex('groups').where({ id: first.body.data.id }).delete();
    await app.service.deps
      .knex('idempotency_keys')
      .where({ organization_id: a.organizationId, key })
      .update({ state: 'running', locked_until: new Date(app.clock.now().getTime() - 1000) });
    const retry = await createGroup(a, groupBody('中断'), key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    expect(await count(a.organizationId, '中断')).toBe(1);
  });

  it('creates once when the same request is sent five times at once', async () => {
    const key = randomUUID();
    const responses = await Promise.all(Array.from({ length: 5 }, () => createGroup(a, groupBody('同時送信'), key)));
    const original = responses.filter((r) => r.status === 201 && !r.headers.get('idempotency-replayed'));
    expect(original).toHaveLength(1);
    for (const r of responses) {
      if (r.status === 201) expect(r.body.data.id).toBe(original[0]!.body.data.id);
      else expect([r.status, r.body.errors[0].code]).toEqual([409, 'IDEMPOTENCY_KEY_IN_PROGRESS']);
    }
    expect(await count(a.organizationId, '同時送信')).toBe(1);
  });

  it('keeps the keys of different organizations apart', async () => {
    const key = randomUUID();
    const inA = await createGroup(a, groupBody('共通キー'), key);
    const inB = await createGroup(b, groupBody('共通キー'), key);
    expect([inA.status, inB.status]).toEqual([201, 201]);
    expect(inB.headers.get('idempotency-replayed')).toBeNull();
    expect(inB.body.data.id).not.toBe(inA.body.data.id);
    expect(await count(a.organizationId, '共通キー')).toBe(1);
    expect(await count(b.organizationId, '共通キー')).toBe(1);
  });

  it('does not keep a failed request: the same key may be retried once the cause is fixed', async () => {
    const key = randomUUID();
    const blocker = await createGroup(a, groupBody('先客', 'TAKEN-1'));
    expect(blocker.status).toBe(201);
    const failed = await createGroup(a, groupBody('後から', 'TAKEN-1'), key);
    expect(failed.status).toBe(422);
    expect(failed.body.errors[0].code).toBe('SYSTEM_LINK_ID_TAKEN');
    await app.service.deps.knex('groups').where({ id: blocker.body.data.id }).update({ system_link_id: null });
    const retry = await createGroup(a, groupBody('後から', 'TAKEN-1'), key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
  });

  it('refuses a malformed key with 422 IDEMPOTENCY_KEY_INVALID and creates nothing', async () => {
    for (const key of ['has space', 'x'.repeat(256), 'clé']) {
      const response = await createGroup(a, groupBody('不正キー'), key);
      expect(response.status).toBe(422);
      expect(response.body.errors[0].code).toBe('IDEMPOTENCY_KEY_INVALID');
    }
    expect(await count(a.organizationId, '不正キー')).toBe(0);
  });

  it('works as before without the header: two requests create two groups', async () => {
    expect((await createGroup(a, groupBody('キーなし'))).status).toBe(201);
    expect((await createGroup(a, groupBody('キーなし2'))).status).toBe(201);
  });

  it('stores only a hash of the request', async () => {
    const key = randomUUID();
    await createGroup(a, groupBody('ハッシュのみ', 'HASH-ONLY'), key);
    const row = await app.service.deps
      .knex('idempotency_keys')
      .where({ organization_id: a.organizationId, key })
      .first();
    expect(row.request_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(Object.keys(row)).not.toContain('request_body');
  });

  // Last: it moves the clock a day on, past every access token of this file.
  it('forgets a key after 24 hours: the same request then runs again', async () => {
    const key = randomUUID();
    expect((await createGroup(a, groupBody('期限切れ'), key)).status).toBe(201);
    app.clock.advance(IDEMPOTENCY_TTL_MS + 1000);
    const { authorizationToken } = await signIn(app, a.loginId, a.password);
    const later = { ...a, token: authorizationToken };
    const retry = await createGroup(later, groupBody('期限切れ'), key);
    expect(retry.headers.get('idempotency-replayed')).toBeNull();
    expect(retry.body.errors[0].code).toBe('GROUP_NAME_TAKEN'); // it really ran again: the name is taken now
    expect(await count(a.organizationId, '期限切れ')).toBe(1);
    const expired = await app.service.deps.knex('idempotency_keys').where({ organization_id: a.organizationId, key });
    expect(expired).toHaveLength(0); // the failure released the taken-over key
  });
});

describe('Idempotency-Key and rate limits', () => {
  let limited: TestApp;
  beforeAll(async () => {
    // One invitation mail an hour per user (the production budget of 20, scaled).
    limited = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '0.05' } });
  });
  afterAll(() => limited.close());

  it('frees a key refused with 429, so the retry after Retry-After is counted again instead of 409', async () => {
    const admin = await adminSession(limited, { organizationName: '上限冪等株式会社' });
    const ws = (await createWorkspace(limited, admin.token, [{ kind: 'group', groupId: admin.defaultGroupId }])).id;
    const invite = (email: string, key: string) =>
      limited.api.call('invitePartnerOrganization', {
        token: admin.token,
        params: { workspaceId: ws },
        body: { data: { type: 'WorkspaceInvitation', attributes: { email } } },
        headers: { 'Idempotency-Key': key },
      });
    expect((await invite(`first-${process.pid}@example.com`, randomUUID())).status).toBe(201);
    const key = randomUUID();
    const refused = await invite(`second-${process.pid}@example.com`, key);
    expect([refused.status, refused.body.errors[0].code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const retry = await invite(`second-${process.pid}@example.com`, key);
    expect([retry.status, retry.body.errors[0].code]).toEqual([429, 'TOO_MANY_REQUESTS']);
    const kept = await limited.service.deps.knex('idempotency_keys').where({ organization_id: admin.organizationId });
    expect(kept).toHaveLength(1); // only the first, successful invitation's
  });
});
