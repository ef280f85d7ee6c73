import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { likePattern, pageOf } from '../../http/pagination.ts';
import { perUser } from '../../access/rate-limits.ts';
import { UPLOAD_LIMITS } from '../../files/upload-limits.ts';
import { readUploadedFile } from '../documents/upload-form.ts';
import { actorOf } from '../users/service.ts';
import { assertSampleTarget, storeTemplateSample, templateSampleFile } from './sample.ts';
import {
  createBusinessFlowTemplate,
  deleteBusinessFlowTemplate,
  updateBusinessFlowTemplate,
} from './business-flow-templates.ts';
import { createDocumentTemplate, deleteDocumentTemplate, updateDocumentTemplate } from './document-templates.ts';
import {
  businessFlowTemplateBody,
  businessFlowTemplateResources,
  businessFlowTemplateScope,
  documentTemplateBody,
  documentTemplateResources,
  documentTemplateScope,
} from './resources.ts';

const SORTABLE = { name: 't.name', createdAt: 't.created_at', updatedAt: 't.updated_at' };

function search(scope: ReturnType<typeof documentTemplateScope>, q: string | undefined, systemLinkId?: string) {
  if (systemLinkId !== undefined) scope.where('t.system_link_id', systemLinkId);
  if (!q) return scope;
  const pattern = likePattern(q);
  return scope.where((w) => w.whereILike('t.name', pattern).orWhereILike('t.system_link_id', pattern));
}

/**
 * Document and business flow templates: every member reads them; only administrators change them (spec §6); only
 * on plans with the `templates` feature (standard and above).
 */
export function templateRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex } = deps;
  // Templates are a standard-plan feature (spec §6 "Free has unavailable features"): 403 PLAN_FEATURE_UNAVAILABLE.
  const read = { feature: 'templates' } as const;
  const manage = { feature: 'templates', permission: 'organization:manage' } as const;

  api.operation('listDocumentTemplates', read, async ({ principal, query }) => {
    const scope = search(
      documentTemplateScope(knex, principal.organizationId),
      query['filter[q]'],
      query['filter[systemLinkId]'],
    );
    const { rows, meta } = await pageOf<Record<string, any>>(scope, query, SORTABLE, 'name', 't.id');
    return { body: { data: await documentTemplateResources(knex, principal.organizationId, rows), meta } };
  });

  api.operation('getDocumentTemplate', read, async ({ principal, params }) => ({
    body: await documentTemplateBody(knex, principal.organizationId, params.documentTemplateId),
  }));

  api.operation('createDocumentTemplate', manage, async ({ principal, body, req }) => {
    const { id } = await knex.transaction((trx) =>
      createDocumentTemplate(deps, trx, actorOf(principal, req), body.data.attributes),
    );
    return { status: 201, body: await documentTemplateBody(knex, principal.organizationId, id) };
  });

  api.operation('updateDocumentTemplate', manage, async ({ principal, body, params, req }) => {
    await knex.transaction((trx) =>
      updateDocumentTemplate(deps, trx, actorOf(principal, req), params.documentTemplateId, body.data.attributes),
    );
    return { body: await documentTemplateBody(knex, principal.organizationId, params.documentTemplateId) };
  });

  api.operation(
    'uploadDocumentTemplateSample',
    { ...manage, rateLimit: [perUser('uploadsPerUser')] },
    async ({ principal, body, params, req }) => {
      await assertSampleTarget(deps, principal.organizationId, params.documentTemplateId);
      const { file } = await readUploadedFile(body, UPLOAD_LIMITS.document);
      await storeTemplateSample(deps, actorOf(principal, req), params.documentTemplateId, file);
      return { body: await documentTemplateBody(knex, principal.organizationId, params.documentTemplateId) };
    },
  );

  api.operation('downloadDocumentTemplateSample', read, async ({ principal, params }) => {
    const { stream, headers } = await templateSampleFile(deps, principal.organizationId, params.documentTemplateId);
    return { body: stream, headers };
  });

  api.operation('deleteDocumentTemplate', manage, async ({ principal, params, req }) => {
    await knex.transaction((trx) =>
      deleteDocumentTemplate(deps, trx, actorOf(principal, req), params.documentTemplateId),
    );
    return { status: 204 };
  });

  api.operation('listBusinessFlowTemplates', read, async ({ principal, query }) => {
    const scope = search(
      businessFlowTemplateScope(knex, principal.organizationId),
      query['filter[q]'],
      query['filter[systemLinkId]'],
    );
    const { rows, meta } = await pageOf<Record<string, any>>(scope, query, SORTABLE, 'name', 't.id');
    return { body: { data: await businessFlowTemplateResources(knex, principal.organizationId, rows), meta } };
  });

  api.operation('getBusinessFlowTemplate', read, async ({ principal, params }) => ({
    body: await businessFlowTemplateBody(knex, principal.organizationId, params.businessFlowTemplateId),
  }));

  api.operation('createBusinessFlowTemplate', manage, async ({ principal, body, req }) => {
    const { id } = await knex.transaction((trx) =>
      createBusinessFlowTemplate(deps, trx, actorOf(principal, req), body.data.attributes),
    );
    return { status: 201, body: await businessFlowTemplateBody(knex, principal.organizationId, id) };
  });

  api.operation('updateBusinessFlowTemplate', manage, async ({ principal, body, params, req }) => {
    await knex.transaction((trx) =>
      updateBusinessFlowTemplate(
        deps,
        trx,
        actorOf(principal, req),
        params.businessFlowTemplateId,
        body.data.attributes,
      ),
    );
    return { body: await businessFlowTemplateBody(knex, principal.organizationId, params.businessFlowTemplateId) };
  });

  api.operation('deleteBusinessFlowTemplate', manage, async ({ principal, params, req }) => {
    await knex.transaction((trx) =>
      deleteBusinessFlowTemplate(deps, trx, actorOf(principal, req), params.businessFlowTemplateId),
    );
    return { status: 204 };
  });
}
