import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserById } from '../../core/auth/users.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { firstGroupId, memberToken, signedInOwner, userIn } from '../helpers/accounts.ts';
import { createUser, userBody } from '../helpers/org-admin.ts';
import { seedWorkspace } from '../helpers/workspaces.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startApp();
});
afterAll(() => app.close());

const knex = () => app.service.deps.knex;
const HOUR = 3_600_000;
const from = (ip: string) => ({ 'x-forwarded-for': ip });
const keyBody = (attributes: Record<string, unknown>) => ({ data: { type: 'ApiKey', attributes } });
const groupBody = (name: string) => ({ data: { type: 'Group', attributes: { name } } });

async function standardAdmin() {
  return signedInOwner(app, { plan: 'standard' });
}

async function createKey(token: string, attributes: Record<string, unknown>) {
  const response = await app.api.call('createApiKey', { token, body: keyBody({ name: '基幹連携', ...attributes }) });
  expect(response.status).toBe(201);
  return { id: response.body.data.id as string, secret: response.body.meta.secret as string, body: response.body };
}

describe('managing keys', () => {
  it('answers the secret once on creation; get and list never show it', async () => {
    const admin = await standardAdmin();
    const { id, secret, body } = await createKey(admin.token, { scopes: ['flows:read'] });
    expect(secret).toMatch(/^kyk_[A-Za-z0-9_-]{43}$/);
    expect(body.data.attributes).toMatchObject({ name: '基幹連携', scopes: ['flows:read'], status: 'active' });
    expect(secret.startsWith(body.data.attributes.prefix)).toBe(true);

    const got = await app.api.call('getApiKey', { token: admin.token, params: { apiKeyId: id } });
    const list = await app.api.call('listApiKeys', { token: admin.token });
    expect(got.status).toBe(200);
    expect(list.body.data.map((k: { id: string }) => k.id)).toEqual([id]);
    for (const response of [got, list]) {
      expect(JSON.stringify(response.body)).not.toContain(secret);
      expect(response.body.meta).toBeUndefined();
    }
  });

  it('stores only a SHA-256 of the secret, never the secret itself', async () => {
    const admin = await standardAdmin();
    const { id, secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    const row = await knex()('api_keys').where({ id }).first();
    expect(JSON.stringify(row)).not.toContain(secret.slice(4));
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('keeps the service user out of the user list and out of password sign-in', async () => {
    const admin = await standardAdmin();
    const { body } = await createKey(admin.token, { scopes: ['users:read'] });
    const users = await app.api.call('listUsers', { token: admin.token });
    expect(users.body.data.map((u: { id: string }) => u.id)).not.toContain(body.data.attributes.serviceUserId);
    const user = await knex()('users').where({ id: body.data.attributes.serviceUserId }).first();
    // Never an administrator at rest: a key acts as one only per operation of an administrators' area.
    expect(user).toMatchObject({ kind: 'service', is_admin: false });
  });

  it('refuses an expiry in the past with 422 API_KEY_EXPIRY_INVALID', async () => {
    const admin = await standardAdmin();
    const response = await app.api.call('createApiKey', {
      token: admin.token,
      body: keyBody({ name: 'x', scopes: ['flows:read'], expiresAt: '2020-01-01T00:00:00Z' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors[0].code).toBe('API_KEY_EXPIRY_INVALID');
  });

  it('renames and changes scopes with lockVersion; a stale one is 409 UPDATED_BY_ANOTHER_USER', async () => {
    const admin = await standardAdmin();
    const { id, secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    const update = (lockVersion: number) =>
      app.api.call('updateApiKey', {
        token: admin.token,
        params: { apiKeyId: id },
        body: keyBody({ name: '会計連携', scopes: ['users:read'], lockVersion }),
      });
    const changed = await update(0);
    expect(changed.status).toBe(200);
    expect(changed.body.data.attributes).toMatchObject({ name: '会計連携', scopes: ['users:read'], lockVersion: 1 });
    expect((await update(0)).body.errors[0].code).toBe('UPDATED_BY_ANOTHER_USER');
    // The new scopes apply at once.
    expect((await app.api.call('listUsers', { token: secret })).status).toBe(200);
    expect((await app.api.call('listWorkspaces', { token: secret })).body.errors[0].code).toBe('API_KEY_SCOPE_MISSING');
  });

  it('refuses members who are not administrators with 403 FUNCTION_NOT_PERMITTED', async () => {
    const admin = await standardAdmin();
    const token = await memberToken(app, admin.organizationId);
    const response = await app.api.call('listApiKeys', { token });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('FUNCTION_NOT_PERMITTED');
  });

  it('refuses a free-plan organization with 403 PLAN_FEATURE_UNAVAILABLE', async () => {
    const free = await signedInOwner(app);
    const response = await app.api.call('createApiKey', {
      token: free.token,
      body: keyBody({ name: 'x', scopes: ['flows:read'] }),
    });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('PLAN_FEATURE_UNAVAILABLE');
  });
});

describe('authenticating with a key', () => {
  it('answers an allowed read as the service user', async () => {
    const admin = await standardAdmin();
    const { secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    const response = await app.api.call('listWorkspaces', { token: secret });
    expect(response.status).toBe(200);
    const me = await app.api.call('getCurrentUser', { token: secret });
    expect(me.status).toBe(200);
  });

  it('refuses an operation of another area with 403 API_KEY_SCOPE_MISSING naming the scope', async () => {
    const admin = await standardAdmin();
    const { secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    const response = await app.api.call('listUsers', { token: secret });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('API_KEY_SCOPE_MISSING');
    expect(response.body.errors[0].meta.params.scope).toBe('users:read');
  });

  it('needs the write scope for a write, and write includes read', async () => {
    const admin = await standardAdmin();
    const reader = await createKey(admin.token, { scopes: ['users:read'] });
    const refused = await app.api.call('createGroup', { token: reader.secret, body: groupBody('連携部') });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('API_KEY_SCOPE_MISSING');
    expect(refused.body.errors[0].meta.params.scope).toBe('users:write');

    const writer = await createKey(admin.token, { scopes: ['users:write'] });
    expect((await app.api.call('createGroup', { token: writer.secret, body: groupBody('連携部') })).status).toBe(201);
    expect((await app.api.call('listGroups', { token: writer.secret })).status).toBe(200);
  });

  it('makes a key an administrator only with an administrator-area scope', async () => {
    const admin = await standardAdmin();
    const flows = await createKey(admin.token, { scopes: ['flows:write'] });
    // createProperty is in the flows area but administrators' only: a flows-only key is an ordinary member.
    const refused = await app.api.call('createProperty', {
      token: flows.secret,
      body: { data: { type: 'Property', attributes: { name: '取引先コード', inputType: 20, scope: 10 } } },
    });
    expect([refused.status, refused.body.errors[0].code]).toEqual([403, 'FUNCTION_NOT_PERMITTED']);

    const logs = await createKey(admin.token, { scopes: ['logs:read'] });
    const today = new Date().toISOString().slice(0, 10);
    const download = (token: string) =>
      fetch(`${app.url}/core/v1/operation-logs/download?from=${today}&to=${today}`, {
        headers: { authorization: `Bearer ${token}` },
      });
    expect((await download(logs.secret)).status).toBe(200);
    expect((await download(flows.secret)).status).toBe(403);
  });

  it('refuses personal operations (password change, sign-out) and key management with 403 API_KEY_NOT_ALLOWED', async () => {
    const admin = await standardAdmin();
    const { secret } = await createKey(admin.token, { scopes: ['organization:write', 'users:write'] });
    const password = await app.api.call('changeMyPassword', {
      token: secret,
      body: { data: { type: 'PasswordChange', attributes: { currentPassword: 'x', newPassword: 'y' } } },
    });
    expect(password.status).toBe(403);
    expect(password.body.errors[0].code).toBe('API_KEY_NOT_ALLOWED');
    const signOut = await app.api.call('signOutOtherSessions', { token: secret });
    expect(signOut.body.errors[0].code).toBe('API_KEY_NOT_ALLOWED');
    // Nor can a key mint or widen keys, whatever its scopes.
    const minted = await app.api.call('createApiKey', {
      token: secret,
      body: keyBody({ name: 'x', scopes: ['users:write'] }),
    });
    expect([minted.status, minted.body.errors[0].code]).toEqual([403, 'API_KEY_NOT_ALLOWED']);
  });

  it("applies the organization's IP restriction to keys", async () => {
    const admin = await signedInOwner(app, { plan: 'standard', signInHeaders: from('203.0.113.7') });
    const { secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    const saved = await app.api.call('replaceIpRestrictions', {
      token: admin.token,
      headers: from('203.0.113.7'),
      body: { data: [{ type: 'IpRestriction', attributes: { cidr: '203.0.113.0/24' } }] },
    });
    expect(saved.status).toBe(200);
    const refused = await app.api.call('listWorkspaces', { token: secret, headers: from('198.51.100.9') });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].code).toBe('IP_RESTRICTED');
    expect((await app.api.call('listWorkspaces', { token: secret, headers: from('203.0.113.50') })).status).toBe(200);
  });

  it('refuses an unknown key with 401 API_KEY_INVALID', async () => {
    const response = await app.api.call('listWorkspaces', { token: `kyk_${'A'.repeat(43)}` });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].code).toBe('API_KEY_INVALID');
  });

  it('refuses a revoked key with 401 API_KEY_REVOKED', async () => {
    const admin = await standardAdmin();
    const { id, secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    const revoked = await app.api.call('revokeApiKey', { token: admin.token, params: { apiKeyId: id } });
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.attributes.status).toBe('revoked');
    const response = await app.api.call('listWorkspaces', { token: secret });
    expect(response.status).toBe(401);
    expect(response.body.errors[0].code).toBe('API_KEY_REVOKED');
    const rotate = await app.api.call('rotateApiKey', { token: admin.token, params: { apiKeyId: id } });
    expect(rotate.status).toBe(409);
    expect(rotate.body.errors[0].code).toBe('API_KEY_ALREADY_REVOKED');
  });

  it('refuses an expired key with 401 API_KEY_EXPIRED', async () => {
    const admin = await standardAdmin();
    const expiresAt = new Date(app.clock.now().getTime() + 30 * 24 * HOUR).toISOString();
    const { secret } = await createKey(admin.token, { scopes: ['flows:read'], expiresAt });
    expect((await app.api.call('listWorkspaces', { token: secret })).status).toBe(200);
    app.clock.advance(30 * 24 * HOUR + 1000);
    try {
      const response = await app.api.call('listWorkspaces', { token: secret });
      expect(response.status).toBe(401);
      expect(response.body.errors[0].code).toBe('API_KEY_EXPIRED');
    } finally {
      app.clock.advance(-(30 * 24 * HOUR + 1000));
    }
  });

  it('stops working when the organization loses the feature (403 PLAN_FEATURE_UNAVAILABLE)', async () => {
    const admin = await standardAdmin();
    const { secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    await knex()('organizations').where({ id: admin.organizationId }).update({ plan: 'free' });
    const response = await app.api.call('listWorkspaces', { token: secret });
    expect(response.status).toBe(403);
    expect(response.body.errors[0].code).toBe('PLAN_FEATURE_UNAVAILABLE');
  });
});

describe('rotation', () => {
  it('answers a new secret; the old one works during the overlap and is refused after it', async () => {
    const admin = await standardAdmin();
    const { id, secret: old } = await createKey(admin.token, { scopes: ['flows:read'] });
    const rotated = await app.api.call('rotateApiKey', {
      token: admin.token,
      params: { apiKeyId: id },
      body: { data: { type: 'ApiKeyRotation', attributes: { overlapHours: 2 } } },
    });
    expect(rotated.status).toBe(200);
    const fresh = rotated.body.meta.secret as string;
    expect(fresh).not.toBe(old);
    expect(rotated.body.data.attributes.previousSecretExpiresAt).not.toBeNull();
    expect((await app.api.call('listWorkspaces', { token: fresh })).status).toBe(200);
    expect((await app.api.call('listWorkspaces', { token: old })).status).toBe(200);
    app.clock.advance(2 * HOUR + 1000);
    try {
      const refused = await app.api.call('listWorkspaces', { token: old });
      expect(refused.status).toBe(401);
      expect(refused.body.errors[0].code).toBe('API_KEY_EXPIRED');
      expect((await app.api.call('listWorkspaces', { token: fresh })).status).toBe(200);
    } finally {
      app.clock.advance(-(2 * HOUR + 1000));
    }
  });

  it('with no overlap the old secret stops at once (default overlap is 24 hours)', async () => {
    const admin = await standardAdmin();
    const { id, secret: old } = await createKey(admin.token, { scopes: ['flows:read'] });
    const rotated = await app.api.call('rotateApiKey', {
      token: admin.token,
      params: { apiKeyId: id },
      body: { data: { type: 'ApiKeyRotation', attributes: { overlapHours: 0 } } },
    });
    expect(rotated.body.data.attributes.previousSecretExpiresAt).toBeNull();
    expect((await app.api.call('listWorkspaces', { token: old })).body.errors[0].code).toBe('API_KEY_INVALID');

    const defaulted = await app.api.call('rotateApiKey', { token: admin.token, params: { apiKeyId: id } });
    const until = new Date(defaulted.body.data.attributes.previousSecretExpiresAt).getTime();
    expect(Math.round((until - app.clock.now().getTime()) / HOUR)).toBe(24);
  });
});

describe('operation log', () => {
  it('records every use with operationId, method and status, and the key changes', async () => {
    const admin = await standardAdmin();
    const { id, secret } = await createKey(admin.token, { scopes: ['flows:read'] });
    await app.api.call('listWorkspaces', { token: secret });
    await app.api.call('listWorkspaces', { token: secret });
    await app.api.call('listUsers', { token: secret });
    await app.api.call('revokeApiKey', { token: admin.token, params: { apiKeyId: id } });
    const rows = await knex()('operation_logs')
      .where({ organization_id: admin.organizationId, target_type: 'api_key', target_id: id })
      .orderBy('id')
      .select('action', 'details', 'actor_user_id');
    expect(rows.map((r) => r.action)).toEqual([
      'api_key.created',
      'api_key.used',
      'api_key.used',
      'api_key.used',
      'api_key.revoked',
    ]);
    expect(rows.filter((r) => r.action === 'api_key.used').map((r) => r.details)).toEqual([
      { operationId: 'listWorkspaces', method: 'GET', status: 200 },
      { operationId: 'listWorkspaces', method: 'GET', status: 200 },
      { operationId: 'listUsers', method: 'GET', status: 403 },
    ]);
    const key = await knex()('api_keys').where({ id }).first('service_user_id', 'last_used_at', 'last_used_ip');
    expect(rows[1]!.actor_user_id).toBe(key.service_user_id);
    expect(key.last_used_at).not.toBeNull();
    expect(key.last_used_ip).toBeTruthy();
    const verdict = await app.service.deps.oplog.verify(knex(), admin.organizationId);
    expect(verdict.firstBadId).toBeNull();
  });
});

describe('tenancy', () => {
  it("another organization's administrator cannot see, change, revoke or rotate a key", async () => {
    const a = await standardAdmin();
    const b = await standardAdmin();
    const { id, secret } = await createKey(a.token, { scopes: ['flows:read'] });
    expect((await app.api.call('listApiKeys', { token: b.token })).body.data).toEqual([]);
    const params = { apiKeyId: id };
    const attempts = [
      await app.api.call('getApiKey', { token: b.token, params }),
      await app.api.call('updateApiKey', { token: b.token, params, body: keyBody({ name: 'x', lockVersion: 0 }) }),
      await app.api.call('revokeApiKey', { token: b.token, params }),
      await app.api.call('rotateApiKey', { token: b.token, params }),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(response.body.errors[0].code).toBe('NOT_FOUND');
    }
    expect((await app.api.call('listWorkspaces', { token: secret })).status).toBe(200);
    const row = await knex()('api_keys').where({ id }).first('name', 'revoked_at', 'lock_version');
    expect(row).toEqual({ name: '基幹連携', revoked_at: null, lock_version: 0 });
  });
});

describe('rate limit', () => {
  it('allows 20 creations and rotations per administrator in 15 minutes; the 21st is 429 TOO_MANY_REQUESTS', async () => {
    const limited = await startApp({ env: { KEIYAKU_RATE_LIMIT_SCALE: '1' } });
    try {
      const admin = await signedInOwner(limited, { plan: 'standard' });
      const body = keyBody({ name: '連携', scopes: ['flows:read'] });
      const first = await limited.api.call('createApiKey', { token: admin.token, body });
      expect(first.status).toBe(201);
      for (let i = 1; i < 19; i++) {
        expect((await limited.api.call('createApiKey', { token: admin.token, body })).status).toBe(201);
      }
      const rotated = await limited.api.call('rotateApiKey', {
        token: admin.token,
        params: { apiKeyId: first.body.data.id },
      });
      expect(rotated.status).toBe(200);
      const refused = await limited.api.call('createApiKey', { token: admin.token, body });
      expect(refused.status).toBe(429);
      expect(refused.body.errors[0].code).toBe('TOO_MANY_REQUESTS');
      // Reading keys is not limited.
      expect((await limited.api.call('listApiKeys', { token: admin.token })).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('administrator rights of a key (per operation, never at rest)', () => {
  it('a flows:read + logs:read key sees only workspaces of its own groups; a users:read key still lists users', async () => {
    const admin = await standardAdmin();
    const workspaceId = await seedWorkspace(app, admin.organizationId, [
      { groupId: await firstGroupId(app, admin.organizationId) },
    ]);
    const { secret } = await createKey(admin.token, { scopes: ['flows:read', 'logs:read'] });
    const list = await app.api.call('listWorkspaces', { token: secret });
    expect(list.status).toBe(200);
    expect(list.body.data.map((w: { id: string }) => w.id)).not.toContain(workspaceId);
    const got = await app.api.call('getWorkspace', { token: secret, params: { workspaceId } });
    expect(got.status).toBe(404);
    // The administrator does see it: the refusal is the key's, not the workspace's.
    const mine = await app.api.call('listWorkspaces', { token: admin.token });
    expect(mine.body.data.map((w: { id: string }) => w.id)).toContain(workspaceId);

    const users = await createKey(admin.token, { scopes: ['users:read'] });
    expect((await app.api.call('listUsers', { token: users.secret })).status).toBe(200);
  });

  it('a users:write key cannot create, promote or import an administrator, nor redirect an administrator’s mail (403 API_KEY_NOT_ALLOWED)', async () => {
    const admin = await standardAdmin();
    const groupId = await firstGroupId(app, admin.organizationId);
    const { secret } = await createKey(admin.token, { scopes: ['users:write'] });
    const loginId = `key-made-${Date.now()}`;
    const created = await app.api.call('createUser', {
      token: secret,
      body: userBody({ loginId, name: 'x', email: 'x@example.com', groupIds: [groupId], isAdmin: true }),
    });
    expect([created.status, created.body.errors[0].code]).toEqual([403, 'API_KEY_NOT_ALLOWED']);
    expect(created.body.errors[0].source.pointer).toBe('/data/attributes/isAdmin');
    expect(await knex()('users').where({ login_id: loginId }).first('id')).toBeUndefined();

    const person = await createUser(app, admin.token, [groupId]);
    const promoted = await app.api.call('updateUser', {
      token: secret,
      params: { userId: person.id },
      body: userBody({ isAdmin: true, lockVersion: person.attributes.lockVersion }),
    });
    expect([promoted.status, promoted.body.errors[0].code]).toEqual([403, 'API_KEY_NOT_ALLOWED']);
    // An ordinary change of an ordinary person still works.
    const renamed = await app.api.call('updateUser', {
      token: secret,
      params: { userId: person.id },
      body: userBody({ name: '改名', lockVersion: person.attributes.lockVersion }),
    });
    expect(renamed.status).toBe(200);

    const owner = await knex()('users').where({ login_id: admin.loginId }).first('id', 'lock_version');
    const redirected = await app.api.call('updateUser', {
      token: secret,
      params: { userId: owner.id },
      body: userBody({ email: 'attacker@example.com', lockVersion: owner.lock_version }),
    });
    expect([redirected.status, redirected.body.errors[0].code]).toEqual([403, 'API_KEY_NOT_ALLOWED']);

    const { name: groupName } = await knex()('groups').where({ id: groupId }).first('name');
    const imported = await fetch(`${app.url}/core/v1/batch/users?dryRun=false`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'text/csv' },
      body: `operation,loginId,name,email,groups,isAdmin\r\nadd,${loginId},x,x@example.com,${groupName},true\r\nupdate,${person.attributes.loginId},,,,true\r\n`,
    });
    type Rows = { data: { attributes: { rows: { outcome: string; errors?: { code: string }[] }[] } } };
    const result = (await imported.json()) as Rows;
    expect(imported.status).toBe(200);
    expect(result.data.attributes.rows.map((r) => [r.outcome, r.errors?.[0]?.code])).toEqual([
      ['failed', 'API_KEY_NOT_ALLOWED'],
      ['failed', 'API_KEY_NOT_ALLOWED'],
    ]);
    expect(await knex()('users').where({ id: person.id }).first('is_admin')).toEqual({ is_admin: false });
  });

  it('refuses the personal signing means (e-certificates, seal images) to a flows:write key', async () => {
    const admin = await standardAdmin();
    const { secret } = await createKey(admin.token, { scopes: ['flows:write', 'flows:read'] });
    const seals = await fetch(`${app.url}/core/v1/me/seal-images`, { headers: { authorization: `Bearer ${secret}` } });
    expect(seals.status).toBe(403);
    expect(((await seals.json()) as { errors: { code: string }[] }).errors[0]!.code).toBe('API_KEY_NOT_ALLOWED');
  });
});

describe('service users outside persons', () => {
  it('hides the service user from getUser (404) and from identity sign-in', async () => {
    const admin = await standardAdmin();
    const { body } = await createKey(admin.token, { scopes: ['users:read'] });
    const serviceUserId = body.data.attributes.serviceUserId as string;
    const got = await app.api.call('getUser', { token: admin.token, params: { userId: serviceUserId } });
    expect(got.status).toBe(404);
    // signInWithIdentity (plugins' single sign-on) finds users through findUserById: no service user there.
    expect(await findUserById(knex(), serviceUserId)).toBeNull();
  });
});

describe('groups and revoked keys', () => {
  it('revoking a key takes its service user out of its groups, so the group can be deleted', async () => {
    const admin = await standardAdmin();
    const group = await app.api.call('createGroup', { token: admin.token, body: groupBody('連携専用') });
    const groupId = group.body.data.id as string;
    const { id, body } = await createKey(admin.token, { scopes: ['flows:read'], groupIds: [groupId] });
    const serviceUserId = body.data.attributes.serviceUserId as string;
    expect(await knex()('group_members').where({ user_id: serviceUserId }).pluck('group_id')).toEqual([groupId]);
    await app.api.call('revokeApiKey', { token: admin.token, params: { apiKeyId: id } });
    expect(await knex()('group_members').where({ user_id: serviceUserId })).toEqual([]);
    const deleted = await app.api.call('deleteGroup', { token: admin.token, params: { groupId } });
    expect(deleted.status).toBe(204);
  });

  it("a service user's only group can be deleted while the key lives (it needs no group)", async () => {
    const admin = await standardAdmin();
    const group = await app.api.call('createGroup', { token: admin.token, body: groupBody('連携専用') });
    const groupId = group.body.data.id as string;
    await createKey(admin.token, { scopes: ['flows:read'], groupIds: [groupId] });
    expect((await app.api.call('deleteGroup', { token: admin.token, params: { groupId } })).status).toBe(204);
  });

  it("only an organization administrator changes a service user's groups; a group administrator gets 403", async () => {
    const admin = await standardAdmin();
    const groupId = await firstGroupId(app, admin.organizationId);
    const other = await app.api.call('createGroup', { token: admin.token, body: groupBody('連携専用') });
    const otherId = other.body.data.id as string;
    const { body } = await createKey(admin.token, { scopes: ['flows:read'], groupIds: [groupId] });
    const serviceUserId = body.data.attributes.serviceUserId as string;
    const groupAdmin = await userIn(app, admin.organizationId, [groupId, otherId]);
    await knex()('group_members').where({ user_id: groupAdmin.id }).update({ is_group_admin: true });
    const memberBody = { data: { type: 'GroupMember', attributes: { userId: serviceUserId } } };

    const added = await app.api.call('addGroupMember', {
      token: groupAdmin.token,
      params: { groupId: otherId },
      body: memberBody,
    });
    expect([added.status, added.body.errors[0].code]).toEqual([403, 'FUNCTION_NOT_PERMITTED']);
    const removed = await app.api.call('removeGroupMember', {
      token: groupAdmin.token,
      params: { groupId, userId: serviceUserId },
    });
    expect([removed.status, removed.body.errors[0].code]).toEqual([403, 'FUNCTION_NOT_PERMITTED']);

    // The organization administrator may, down to no group at all.
    const byAdmin = await app.api.call('removeGroupMember', {
      token: admin.token,
      params: { groupId, userId: serviceUserId },
    });
    expect(byAdmin.status).toBe(204);
  });
});
