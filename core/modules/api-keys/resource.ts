import type { components } from '../../contract/api.gen.ts';

/** A row of api_keys as the admin operations read it (never the secret hashes). */
export interface ApiKeyRow {
  id: string;
  organization_id: string;
  service_user_id: string;
  name: string;
  scopes: string[];
  prefix: string;
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  previous_secret_expires_at: Date | null;
  created_by: string | null;
  created_at: Date;
  lock_version: number;
}

export const API_KEY_COLUMNS = [
  'id',
  'organization_id',
  'service_user_id',
  'name',
  'scopes',
  'prefix',
  'expires_at',
  'last_used_at',
  'last_used_ip',
  'revoked_at',
  'previous_secret_expires_at',
  'created_by',
  'created_at',
  'lock_version',
] as const;

type ApiKeyResource = components['schemas']['ApiKeyResource'];

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** The JSON:API resource of a key at `now` (its status and whether the previous secret still works depend on it). */
export function apiKeyResource(row: ApiKeyRow, now: Date): ApiKeyResource {
  const status = row.revoked_at ? 'revoked' : row.expires_at && row.expires_at <= now ? 'expired' : 'active';
  const overlap = !row.revoked_at && row.previous_secret_expires_at && row.previous_secret_expires_at > now;
  return {
    type: 'ApiKey',
    id: row.id,
    attributes: {
      name: row.name,
      prefix: row.prefix,
      scopes: row.scopes as ApiKeyResource['attributes']['scopes'],
      status,
      expiresAt: iso(row.expires_at),
      lastUsedAt: iso(row.last_used_at),
      lastUsedIp: row.last_used_ip,
      revokedAt: iso(row.revoked_at),
      previousSecretExpiresAt: overlap ? iso(row.previous_secret_expires_at) : null,
      serviceUserId: row.service_user_id,
      createdBy: row.created_by,
      createdAt: row.created_at.toISOString(),
      lockVersion: row.lock_version,
    },
  };
}
