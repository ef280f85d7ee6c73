import { perUser } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import type { Principal, RequestContext } from '../../http/context.ts';
import { apiKeyResource } from './resource.ts';
import {
  createApiKey,
  DEFAULT_OVERLAP_HOURS,
  findApiKey,
  listApiKeys,
  revokeApiKey,
  rotateApiKey,
  updateApiKey,
} from './service.ts';

/** Administrators of an organization with the `apiKeys` feature manage its keys. */
const GATE = { feature: 'apiKeys', permission: 'organization:manage' } as const;
/** Creations and rotations answer a new secret: a modest budget per administrator. */
const SECRET_LIMIT = { ...GATE, rateLimit: [perUser('apiKeySecretsPerUser')] } as const;

const actorOf = (principal: Principal, req: RequestContext) => ({
  userId: principal.userId,
  organizationId: principal.organizationId,
  req,
});

export function apiKeyRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, clock } = deps;

  api.operation('listApiKeys', GATE, async ({ principal }) => {
    const rows = await listApiKeys(knex, principal.organizationId);
    const now = clock.now();
    return { body: { data: rows.map((row) => apiKeyResource(row, now)) } };
  });

  api.operation('getApiKey', GATE, async ({ principal, params }) => {
    const row = await findApiKey(knex, principal.organizationId, params.apiKeyId);
    return { body: { data: apiKeyResource(row, clock.now()) } };
  });

  api.operation('createApiKey', SECRET_LIMIT, async ({ principal, req, body }) => {
    const { row, secret } = await knex.transaction((trx) =>
      createApiKey(deps, trx, actorOf(principal, req), body.data.attributes),
    );
    return { status: 201, body: { data: apiKeyResource(row, clock.now()), meta: { secret } } };
  });

  api.operation('updateApiKey', GATE, async ({ principal, req, params, body }) => {
    const row = await knex.transaction((trx) =>
      updateApiKey(deps, trx, actorOf(principal, req), params.apiKeyId, body.data.attributes),
    );
    return { body: { data: apiKeyResource(row, clock.now()) } };
  });

  api.operation('revokeApiKey', GATE, async ({ principal, req, params }) => {
    const row = await knex.transaction((trx) => revokeApiKey(deps, trx, actorOf(principal, req), params.apiKeyId));
    return { body: { data: apiKeyResource(row, clock.now()) } };
  });

  api.operation('rotateApiKey', SECRET_LIMIT, async ({ principal, req, params, body }) => {
    const overlapHours = body?.data?.attributes.overlapHours ?? DEFAULT_OVERLAP_HOURS;
    const { row, secret } = await knex.transaction((trx) =>
      rotateApiKey(deps, trx, actorOf(principal, req), params.apiKeyId, overlapHours),
    );
    return { body: { data: apiKeyResource(row, clock.now()), meta: { secret } } };
  });
}
