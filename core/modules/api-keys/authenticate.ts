import { timingSafeEqual } from 'node:crypto';
import type { Knex } from 'knex';
import type { Clock } from '../../clock.ts';
import { executeOnConnection } from '../../db/index.ts';
import type { Principal } from '../../http/context.ts';
import { AppError } from '../../http/errors.ts';
import { hashApiKeySecret } from './secret.ts';

/** One indexed look-up by the secret's hash (current or previous), with the service user and its organization. */
const KEY_PRINCIPAL_SQL = `
  SELECT k.id, k.scopes, k.secret_hash, k.previous_secret_hash, k.previous_secret_expires_at, k.expires_at,
         k.revoked_at, k.last_used_at, u.id AS user_id, u.login_id, u.status, u.locale,
         o.id AS organization_id, o.plan, o.options,
         coalesce((SELECT array_agg(i.cidr ORDER BY i.cidr) FROM ip_restrictions i WHERE i.organization_id = o.id),
                  '{}') AS ip_allow_list
    FROM api_keys k
    JOIN users u ON u.id = k.service_user_id
    JOIN organizations o ON o.id = k.organization_id
   WHERE k.secret_hash = $1 OR k.previous_secret_hash = $1`;

interface KeyRow {
  id: string;
  scopes: string[];
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  user_id: string;
  login_id: string;
  status: string;
  locale: Principal['locale'];
  organization_id: string;
  plan: Principal['plan'];
  options: Principal['options'];
  ip_allow_list: string[];
}

function sameHash(a: string, b: string | null): boolean {
  if (b === null || a.length !== b.length) return false;
  return timingSafeEqual(Buffer.from(a, 'hex'), Buffer.from(b, 'hex'));
}

/**
 * Resolves `Authorization: Bearer kyk_…` to the principal of the key's service user. The secret is looked up by
 * its SHA-256 (the database compares hashes, never the secret; which of the two hashes matched is decided with a
 * constant-time comparison). Unknown → 401 API_KEY_INVALID, revoked → API_KEY_REVOKED, past its expiry (or a
 * rotated-away secret past its overlap) → API_KEY_EXPIRED.
 */
export function apiKeyAuthenticator(knex: Knex, clock: Clock) {
  return async (secret: string): Promise<Principal> => {
    const hash = hashApiKeySecret(secret);
    const { rows } = await executeOnConnection(knex, KEY_PRINCIPAL_SQL, [hash], 'keiyaku_api_key_principal');
    const row = rows[0] as KeyRow | undefined;
    if (!row) throw new AppError('API_KEY_INVALID');
    const now = clock.now();
    if (row.revoked_at || row.status !== 'active') throw new AppError('API_KEY_REVOKED');
    if (row.expires_at && row.expires_at <= now) throw new AppError('API_KEY_EXPIRED');
    const current = sameHash(hash, row.secret_hash);
    if (!current && !(row.previous_secret_expires_at && row.previous_secret_expires_at > now)) {
      throw new AppError('API_KEY_EXPIRED');
    }
    return {
      userId: row.user_id,
      loginId: row.login_id,
      organizationId: row.organization_id,
      // A key has no sign-in session; its id stands in (operations that end a session refuse keys).
      sessionId: row.id,
      // Decided per operation by assertApiKeyMayCall (an administrator only in an administrators' area it is scoped for).
      isAdmin: false,
      isOwner: false,
      plan: row.plan,
      options: row.options,
      locale: row.locale,
      ipAllowList: row.ip_allow_list,
      apiKey: { id: row.id, scopes: row.scopes, lastUsedAt: row.last_used_at },
    };
  };
}
