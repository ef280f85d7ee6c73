/*
 * The principal cache (core/auth/principal-cache.ts) on PostgreSQL: a signed-in request and GET /me are answered
 * from memory, and every change is seen — this process's own at once, another process's (here: a separate
 * connection, as another API process would write) through the notification its commit sends.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInOwner, signIn } from '../helpers/accounts.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

/** The embedded PGlite runs without the cache (one process, no listener). */
const embedded = process.env.KEIYAKU_TEST_DB === 'pglite';
let app: TestApp;
/** Another process's connection to the same database. */
let other: pg.Client;

beforeAll(async () => {
  if (embedded) return;
  app = await startApp();
  other = new pg.Client({ connectionString: (app.service.deps.config.database as { url: string }).url });
  await other.connect();
});
afterAll(async () => {
  await other?.end();
  await app?.close();
});

const me = (token: string) => app.api.call('getCurrentUser', { token });

describe.skipIf(embedded)('the principal cache', () => {
  it('answers from memory until a change is told, then reads the change', async () => {
    const owner = await signedInOwner(app);
    expect((await me(owner.token)).status).toBe(200);
    // A write that tells nobody (triggers off for this connection): the cached answer stays; proof that it is cached.
    await other.query('SET session_replication_role = replica');
    await other.query('UPDATE users SET name = $1 WHERE id = $2', ['黙って変えた名前', owner.ownerId]);
    await other.query('SET session_replication_role = DEFAULT');
    expect((await me(owner.token)).body.data.attributes.name).not.toBe('黙って変えた名前');
    // The same change told as a trigger tells it: the next answer reads it.
    await other.query(`SELECT pg_notify('keiyaku_principal', $1)`, [`u:${owner.ownerId}`]);
    await expect
      .poll(async () => (await me(owner.token)).body.data.attributes.name, { timeout: 2_000, interval: 20 })
      .toBe('黙って変えた名前');
  });

  it("refuses a session another process ended, within the notification's delivery", async () => {
    const owner = await signedInOwner(app);
    expect((await me(owner.token)).status).toBe(200);
    expect((await me(owner.token)).status).toBe(200); // cached now
    await other.query(`UPDATE auth_sessions SET revoked_at = now(), revoked_reason = 'test' WHERE user_id = $1`, [
      owner.ownerId,
    ]);
    await expect.poll(async () => (await me(owner.token)).status, { timeout: 2_000, interval: 10 }).toBe(401);
    expect((await me(owner.token)).body.errors[0].code).toBe('SESSION_REVOKED');
  });

  it("sees another process's deactivation, admin rights and IP list through the triggers", async () => {
    const owner = await signedInOwner(app, { plan: 'standard' });
    const listIps = () => app.api.call('listIpRestrictions', { token: owner.token });
    expect((await listIps()).status).toBe(200);
    await other.query('UPDATE users SET is_admin = false WHERE id = $1', [owner.ownerId]);
    await expect.poll(async () => (await listIps()).status, { timeout: 2_000, interval: 10 }).toBe(403);
    await other.query('UPDATE users SET is_admin = true WHERE id = $1', [owner.ownerId]);
    await expect.poll(async () => (await listIps()).status, { timeout: 2_000, interval: 10 }).toBe(200);
    await other.query(`INSERT INTO ip_restrictions (organization_id, cidr) VALUES ($1, '198.51.100.0/24')`, [
      owner.organizationId,
    ]);
    await expect.poll(async () => (await listIps()).status, { timeout: 2_000, interval: 10 }).toBe(403);
    expect((await listIps()).body.errors[0].code).toBe('IP_RESTRICTED');
    await other.query(`UPDATE users SET status = 'deactivated' WHERE id = $1`, [owner.ownerId]);
    await expect.poll(async () => (await me(owner.token)).status, { timeout: 2_000, interval: 10 }).toBe(401);
  });

  it("refuses this process's own sign-out on the very next request", async () => {
    const owner = await signedInOwner(app);
    const second = await signIn(app, owner.loginId, owner.password);
    for (let i = 0; i < 3; i += 1) expect((await me(second.authorizationToken)).status).toBe(200);
    expect((await app.api.call('signOut', { token: second.authorizationToken })).status).toBe(204);
    const after = await me(second.authorizationToken);
    expect(after.status).toBe(401);
    expect(after.body.errors[0].code).toBe('SESSION_REVOKED');
    // The other session of the same user is untouched.
    expect((await me(owner.token)).status).toBe(200);
  });
});
