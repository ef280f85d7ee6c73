import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { Principal } from '../http/context.ts';
import { CACHED_TABLE_WRITE, PrincipalCache } from './principal-cache.ts';

const principal: Principal = {
  userId: 'u1',
  loginId: 'u1',
  organizationId: 'o1',
  sessionId: 's1',
  isAdmin: false,
  isOwner: false,
  plan: 'free',
  options: [],
  locale: 'ja',
  ipAllowList: [],
};

// What it keeps and drops while listening is shown against PostgreSQL in tests/api/principal-cache.test.ts.
describe('the principal cache', () => {
  it('keeps and serves nothing while it does not listen', () => {
    const cache = new PrincipalCache('postgres://unused', pino({ level: 'silent' }));
    cache.putSession(cache.generation, principal, new Date());
    cache.putBody(cache.generation, principal, { data: {} });
    expect(cache.session('s1')).toBeUndefined();
    expect(cache.body('u1')).toBeUndefined();
  });

  it("recognises this process's writes that change what it caches, and only those", () => {
    const writes = [
      'update "users" set "is_admin" = $1 where "id" = $2',
      'insert into "group_members" ("group_id", "user_id") values ($1, $2)',
      'delete from "user_roles" where "user_id" = $1',
      'update "auth_sessions" set "revoked_at" = $1, "revoked_reason" = $2 where "id" = $3',
      'insert into "ip_restrictions" ("cidr", "organization_id") values ($1, $2)',
      'update "organizations" set "plan" = $1 where "id" = $2',
    ];
    const others = [
      'update "auth_sessions" set "last_used_at" = $1 where "id" = $2',
      'select * from "users" where "id" = $1',
      'update "users_archive" set "x" = 1',
      'insert into "documents" ("name") values ($1)',
    ];
    for (const sql of writes) expect(CACHED_TABLE_WRITE.test(sql), sql).toBe(true);
    for (const sql of others) expect(CACHED_TABLE_WRITE.test(sql), sql).toBe(false);
  });
});
