import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { likePattern, pageOf } from '../../http/pagination.ts';
import { loadProperty, MAX_PROPERTIES, type PropertyRow, toResource, withOptions } from './model.ts';

const SORTABLE = { name: 'name', createdAt: 'created_at', inputType: 'input_type' };

/** Reading definitions is open to every member on every plan (see gate.ts). */
export function readPropertyRoutes(api: ApiRouter, { knex }: CoreDeps): void {
  api.operation('listProperties', async ({ principal, query }) => {
    const scope = knex('custom_properties').where({ organization_id: principal.organizationId });
    const q = query['filter[q]'];
    if (q) {
      const pattern = likePattern(q);
      scope.where((w) => w.whereILike('name', pattern).orWhereILike('system_link_id', pattern));
    }
    if (query['filter[scope]'] !== undefined) scope.where({ scope: query['filter[scope]'] });
    if (query['filter[inputType]'] !== undefined) scope.where({ input_type: query['filter[inputType]'] });
    if (query['filter[systemLinkId]'] !== undefined) scope.where({ system_link_id: query['filter[systemLinkId]'] });
    const { rows, meta } = await pageOf<PropertyRow>(scope, query, SORTABLE, 'name');
    const loaded = await withOptions(knex, rows);
    return { body: { data: loaded.map(toResource), meta: { ...meta, maxProperties: MAX_PROPERTIES } } };
  });

  api.operation('getProperty', async ({ principal, params }) => ({
    body: { data: toResource(await loadProperty(knex, principal.organizationId, params.propertyId)) },
  }));
}
