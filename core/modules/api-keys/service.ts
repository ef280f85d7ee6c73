import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { assertLockVersion } from '../../db/lock.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { NO_PASSWORD } from '../users/invitation.ts';
import { resolveGroupRefs } from '../groups/service.ts';
import { type ChangeActor, changeLogger } from '../logs/operation-log.ts';
import { API_KEY_COLUMNS, type ApiKeyRow } from './resource.ts';
import { newApiKeySecret } from './secret.ts';

type Deps = Pick<CoreDeps, 'clock' | 'oplog'>;

const log = changeLogger('api_key');

/** The overlap a rotation gives the replaced secret when the request names none. */
export const DEFAULT_OVERLAP_HOURS = 24;

/** Every key of an organization, newest first. */
export function listApiKeys(knex: Knex, organizationId: string): Promise<ApiKeyRow[]> {
  return knex('api_keys')
    .where({ organization_id: organizationId })
    .orderBy([{ column: 'created_at', order: 'desc' }, 'id'])
    .select(API_KEY_COLUMNS);
}

/** One key of the organization, locked for a change when `trx` is one, or 404. */
export async function findApiKey(knex: Knex, organizationId: string, id: string, lock = false): Promise<ApiKeyRow> {
  const query = knex('api_keys').where({ id, organization_id: organizationId }).first(API_KEY_COLUMNS);
  if (lock) query.forUpdate();
  const row = (await query) as ApiKeyRow | undefined;
  if (!row) throw new AppError('NOT_FOUND', { detail: `API key ${id} was not found.` });
  return row;
}

/**
 * Creates a key and its service user: a users row of kind 'service' with an unusable password, a login ID no
 * person can choose (`api-key:<id>`), no deliverable e-mail (blocked), in the groups asked for, an administrator
 * only when its scopes include an administrator's area.
 */
export async function createApiKey(
  deps: Deps,
  trx: Knex.Transaction,
  actor: ChangeActor,
  input: { name: string; scopes: string[]; expiresAt?: string | null; groupIds?: string[] },
): Promise<{ row: ApiKeyRow; secret: string }> {
  const now = deps.clock.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt <= now) {
    throw new AppError('API_KEY_EXPIRY_INVALID', { pointer: '/data/attributes/expiresAt' });
  }
  const refs = (input.groupIds ?? []).map((id) => ({ id }));
  const groups = await resolveGroupRefs(trx, actor.organizationId, refs, '/data/attributes/groupIds');
  if (groups.problems.length > 0) throw AppError.invalid(groups.problems);
  const id = randomUUID();
  const [user] = await trx('users')
    .insert({
      organization_id: actor.organizationId,
      kind: 'service',
      login_id: `api-key:${id}`,
      name: input.name,
      email: `api-key-${id}@service.invalid`,
      email_blocked_at: now,
      password_hash: NO_PASSWORD,
      is_admin: false, // administrator per request only (apiKeyActsAsAdmin), never at rest
      created_at: now,
      updated_at: now,
    })
    .returning('id');
  if (groups.ids.length > 0) {
    await trx('group_members').insert(groups.ids.map((groupId) => ({ group_id: groupId, user_id: user.id })));
  }
  const { secret, hash, prefix } = newApiKeySecret();
  const [row] = await trx('api_keys')
    .insert({
      id,
      organization_id: actor.organizationId,
      service_user_id: user.id,
      name: input.name,
      scopes: input.scopes,
      prefix,
      secret_hash: hash,
      expires_at: expiresAt,
      created_by: actor.userId,
      created_at: now,
    })
    .returning(API_KEY_COLUMNS);
  await log(deps, trx, actor, 'api_key.created', id, {
    name: input.name,
    scopes: input.scopes,
    expiresAt: expiresAt?.toISOString() ?? null,
    serviceUserId: user.id,
  });
  return { row: row as ApiKeyRow, secret };
}

function assertNotRevoked(row: ApiKeyRow): void {
  if (row.revoked_at) throw new AppError('API_KEY_ALREADY_REVOKED');
}

/** Renames a key or replaces its scopes (the service user's name follows). */
export async function updateApiKey(
  deps: Deps,
  trx: Knex.Transaction,
  actor: ChangeActor,
  id: string,
  input: { name?: string; scopes?: string[]; lockVersion: number },
): Promise<ApiKeyRow> {
  const before = await findApiKey(trx, actor.organizationId, id, true);
  assertLockVersion(before, input.lockVersion);
  assertNotRevoked(before);
  const changes: Record<string, unknown> = { lock_version: before.lock_version + 1 };
  if (input.name !== undefined) changes.name = input.name;
  if (input.scopes !== undefined) changes.scopes = input.scopes;
  const [row] = await trx('api_keys').where({ id }).update(changes).returning(API_KEY_COLUMNS);
  await trx('users')
    .where({ id: before.service_user_id })
    .update({
      name: input.name ?? before.name,
      updated_at: deps.clock.now(),
      lock_version: trx.raw('lock_version + 1'),
    });
  await log(deps, trx, actor, 'api_key.updated', id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.scopes !== undefined ? { scopes: input.scopes, previousScopes: before.scopes } : {}),
  });
  return row as ApiKeyRow;
}

/** Revokes a key for good (again: unchanged); the service user is deactivated with it. */
export async function revokeApiKey(
  deps: Deps,
  trx: Knex.Transaction,
  actor: ChangeActor,
  id: string,
): Promise<ApiKeyRow> {
  const before = await findApiKey(trx, actor.organizationId, id, true);
  if (before.revoked_at) return before;
  const now = deps.clock.now();
  const [row] = await trx('api_keys')
    .where({ id })
    .update({ revoked_at: now, previous_secret_expires_at: null, lock_version: before.lock_version + 1 })
    .returning(API_KEY_COLUMNS);
  await trx('users').where({ id: before.service_user_id }).update({ status: 'deactivated', updated_at: now });
  // A revoked key's service user leaves its groups, so they can be deleted (it never acts again).
  await trx('group_members').where({ user_id: before.service_user_id }).delete();
  await log(deps, trx, actor, 'api_key.revoked', id, { name: before.name });
  return row as ApiKeyRow;
}

/**
 * Issues a new secret; the one it replaces keeps working `overlapHours` (a secret replaced before that stops at
 * once: only one previous secret is kept).
 */
export async function rotateApiKey(
  deps: Deps,
  trx: Knex.Transaction,
  actor: ChangeActor,
  id: string,
  overlapHours: number,
): Promise<{ row: ApiKeyRow; secret: string }> {
  const before = await findApiKey(trx, actor.organizationId, id, true);
  assertNotRevoked(before);
  const now = deps.clock.now();
  const current = await trx('api_keys').where({ id }).first('secret_hash');
  const { secret, hash, prefix } = newApiKeySecret();
  const overlapEnds = new Date(now.getTime() + overlapHours * 3_600_000);
  const [row] = await trx('api_keys')
    .where({ id })
    .update({
      secret_hash: hash,
      prefix,
      previous_secret_hash: overlapHours > 0 ? current.secret_hash : null,
      previous_secret_expires_at: overlapHours > 0 ? overlapEnds : null,
      lock_version: before.lock_version + 1,
    })
    .returning(API_KEY_COLUMNS);
  await log(deps, trx, actor, 'api_key.rotated', id, {
    previousPrefix: before.prefix,
    prefix,
    previousSecretExpiresAt: overlapHours > 0 ? overlapEnds.toISOString() : null,
  });
  return { row: row as ApiKeyRow, secret };
}
