import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';
import { useInvalidating } from './document-templates.ts';

export type BusinessFlowTemplate = components['schemas']['BusinessFlowTemplate'];
export type BusinessFlowTemplateSort = NonNullable<
  NonNullable<paths['/business-flow-templates']['get']['parameters']['query']>['sort']
>;
export type BusinessFlowTemplateCreateAttributes =
  components['schemas']['BusinessFlowTemplateCreateRequest']['data']['attributes'];
export type BusinessFlowTemplateUpdateAttributes =
  components['schemas']['BusinessFlowTemplateUpdateRequest']['data']['attributes'];

/** GET /business-flow-templates (listBusinessFlowTemplates): one page, searched by name and ID for system link. */
export async function listBusinessFlowTemplates(params: ListParams<BusinessFlowTemplateSort>) {
  return unwrap(await api.GET('/business-flow-templates', { params: { query: listQuery(params) } }));
}

export const businessFlowTemplatesQueryOptions = (params: ListParams<BusinessFlowTemplateSort>) =>
  queryOptions({
    queryKey: ['templates', 'business-flow', 'list', params],
    queryFn: () => listBusinessFlowTemplates(params),
  });

export function useBusinessFlowTemplates(params: ListParams<BusinessFlowTemplateSort>) {
  return useQuery({ ...businessFlowTemplatesQueryOptions(params), placeholderData: keepPreviousData });
}

/** POST /business-flow-templates (createBusinessFlowTemplate): administrators only. */
export async function createBusinessFlowTemplate(attributes: BusinessFlowTemplateCreateAttributes) {
  return unwrap(
    await api.POST('/business-flow-templates', { body: { data: { type: 'BusinessFlowTemplate', attributes } } }),
  ).data;
}

/** PATCH /business-flow-templates/{id} (updateBusinessFlowTemplate): a stale lockVersion is 409. */
export async function updateBusinessFlowTemplate(input: {
  id: string;
  attributes: BusinessFlowTemplateUpdateAttributes;
}) {
  return unwrap(
    await api.PATCH('/business-flow-templates/{businessFlowTemplateId}', {
      params: { path: { businessFlowTemplateId: input.id } },
      body: { data: { type: 'BusinessFlowTemplate', attributes: input.attributes } },
    }),
  ).data;
}

/** DELETE /business-flow-templates/{id} (deleteBusinessFlowTemplate). */
export async function deleteBusinessFlowTemplate(id: string) {
  unwrap(
    await api.DELETE('/business-flow-templates/{businessFlowTemplateId}', {
      params: { path: { businessFlowTemplateId: id } },
    }),
  );
}

export const useCreateBusinessFlowTemplate = () => useInvalidating(createBusinessFlowTemplate);
export const useUpdateBusinessFlowTemplate = () => useInvalidating(updateBusinessFlowTemplate);
export const useDeleteBusinessFlowTemplate = () => useInvalidating(deleteBusinessFlowTemplate);
