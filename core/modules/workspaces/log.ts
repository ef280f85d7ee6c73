import type { Knex } from 'knex';
import type { CoreDeps } from '../../deps.ts';
import type { Actor } from '../users/service.ts';

/** Appends a workspace change to the operation log of the actor's (the owner) organization. */
export function logWorkspaceChange(
  deps: CoreDeps,
  trx: Knex.Transaction,
  actor: Actor,
  action: string,
  workspaceId: string,
  details: Record<string, unknown>,
) {
  return deps.oplog.append(trx, actor.req, {
    action,
    organizationId: actor.organizationId,
    actorUserId: actor.userId,
    targetType: 'workspace',
    targetId: workspaceId,
    details,
  });
}
