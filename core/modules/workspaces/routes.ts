import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { likePattern, LIST_COUNT_CAP, pageOf } from '../../http/pagination.ts';
import { actorOf } from '../users/service.ts';
import { workspaceAccessMany } from './access.ts';
import { addParticipant, removeParticipant, updateParticipant } from './participants.ts';
import { flowCounts, workspaceBody, workspaceResource, workspaceScope } from './read.ts';
import { createWorkspace, deleteWorkspace, updateWorkspace } from './service.ts';

type Row = Record<string, any>;

/** Workspaces, their participants, and the partner organization lookup. */
export function workspaceRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;

  api.operation('listWorkspaces', async ({ principal, query }) => {
    const scope = workspaceScope(knex, principal);
    if (query['filter[q]']) {
      const pattern = likePattern(query['filter[q]']);
      scope.where((w) => w.whereILike('w.name', pattern).orWhereILike('w.system_link_id', pattern));
    }
    // An ID for system link is unique within one organization: it names the caller's own workspaces only.
    if (query['filter[systemLinkId]'] !== undefined) {
      scope.where({ 'w.system_link_id': query['filter[systemLinkId]'], 'w.organization_id': principal.organizationId });
    }
    if (query['filter[relation]'] === 'own') scope.where('w.organization_id', principal.organizationId);
    if (query['filter[relation]'] === 'partner') scope.whereNot('w.organization_id', principal.organizationId);
    const sortable = { name: 'w.name', createdAt: 'w.created_at', updatedAt: 'w.updated_at' };
    const { rows, meta } = await pageOf<Row>(scope, query, sortable, '-createdAt', 'w.id', {
      countCap: LIST_COUNT_CAP,
      keyset: true,
    });
    const access = await workspaceAccessMany(knex, principal, rows as never);
    const counts = await flowCounts(
      knex,
      principal,
      rows.map((r) => r.id),
    );
    return {
      body: { data: rows.map((row) => workspaceResource(row, access.get(row.id)!, counts.get(row.id)!)), meta },
    };
  });

  api.operation('createWorkspace', async ({ principal, body, req }) => {
    const { id } = await knex.transaction((trx) =>
      createWorkspace(deps, trx, actorOf(principal, req), principal, body.data.attributes),
    );
    return { status: 201, body: await workspaceBody(knex, principal, id) };
  });

  api.operation('getWorkspace', async ({ principal, params }) => ({
    body: await workspaceBody(knex, principal, params.workspaceId),
  }));

  api.operation('updateWorkspace', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      updateWorkspace(deps, trx, actorOf(principal, req), principal, params.workspaceId, body.data.attributes),
    );
    return { body: await workspaceBody(knex, principal, params.workspaceId) };
  });

  api.operation('deleteWorkspace', async ({ principal, params, req }) => {
    await knex.transaction((trx) => deleteWorkspace(deps, trx, actorOf(principal, req), principal, params.workspaceId));
    return { status: 204 };
  });

  api.operation('addWorkspaceParticipant', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      addParticipant(deps, trx, actorOf(principal, req), principal, params.workspaceId, body.data.attributes),
    );
    return { status: 201, body: await workspaceBody(knex, principal, params.workspaceId) };
  });

  api.operation('updateWorkspaceParticipant', async ({ principal, params, body, req }) => {
    await knex.transaction((trx) =>
      updateParticipant(deps, trx, actorOf(principal, req), principal, params, body.data.attributes),
    );
    return { body: await workspaceBody(knex, principal, params.workspaceId) };
  });

  api.operation('removeWorkspaceParticipant', async ({ principal, params, query, req }) => {
    await knex.transaction((trx) =>
      removeParticipant(deps, trx, actorOf(principal, req), principal, params, query.lockVersion),
    );
    return { body: await workspaceBody(knex, principal, params.workspaceId) };
  });

  api.operation('findPartnerOrganization', async ({ query }) => {
    const row = await knex('organizations')
      .where('corporate_number', query['filter[corporateNumber]'])
      .first('id', 'name', 'corporate_number');
    if (!row) throw new AppError('NOT_FOUND');
    return {
      body: {
        data: {
          type: 'PartnerOrganization',
          id: row.id,
          attributes: { name: row.name, corporateNumber: row.corporate_number },
        },
      },
    };
  });
}
