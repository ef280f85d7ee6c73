import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

export type DocumentTemplate = components['schemas']['DocumentTemplate'];
export type DocumentTemplateSort = NonNullable<
  NonNullable<paths['/document-templates']['get']['parameters']['query']>['sort']
>;
export type DocumentTemplateCreateAttributes =
  components['schemas']['DocumentTemplateCreateRequest']['data']['attributes'];
export type DocumentTemplateUpdateAttributes =
  components['schemas']['DocumentTemplateUpdateRequest']['data']['attributes'];

/** Both template lists live under ['templates']: a change to either can show in the other (names, usedBy). */
const KEY = ['templates', 'document'] as const;

/** GET /document-templates (listDocumentTemplates): one page, searched by name and ID for system link. */
export async function listDocumentTemplates(params: ListParams<DocumentTemplateSort>) {
  return unwrap(await api.GET('/document-templates', { params: { query: listQuery(params) } }));
}

export const documentTemplatesQueryOptions = (params: ListParams<DocumentTemplateSort>) =>
  queryOptions({ queryKey: [...KEY, 'list', params], queryFn: () => listDocumentTemplates(params) });

export function useDocumentTemplates(params: ListParams<DocumentTemplateSort>) {
  return useQuery({ ...documentTemplatesQueryOptions(params), placeholderData: keepPreviousData });
}

/** POST /document-templates (createDocumentTemplate): administrators only. */
export async function createDocumentTemplate(attributes: DocumentTemplateCreateAttributes) {
  return unwrap(await api.POST('/document-templates', { body: { data: { type: 'DocumentTemplate', attributes } } }))
    .data;
}

/** PATCH /document-templates/{id} (updateDocumentTemplate): a stale lockVersion is 409 UPDATED_BY_ANOTHER_USER. */
export async function updateDocumentTemplate(input: { id: string; attributes: DocumentTemplateUpdateAttributes }) {
  return unwrap(
    await api.PATCH('/document-templates/{documentTemplateId}', {
      params: { path: { documentTemplateId: input.id } },
      body: { data: { type: 'DocumentTemplate', attributes: input.attributes } },
    }),
  ).data;
}

/** DELETE /document-templates/{id} (deleteDocumentTemplate): 409 TEMPLATE_IN_USE while a flow template uses it. */
export async function deleteDocumentTemplate(id: string) {
  unwrap(
    await api.DELETE('/document-templates/{documentTemplateId}', { params: { path: { documentTemplateId: id } } }),
  );
}

export function useInvalidating<I, O>(mutationFn: (input: I) => Promise<O>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['templates'] }) });
}

export const useCreateDocumentTemplate = () => useInvalidating(createDocumentTemplate);
export const useUpdateDocumentTemplate = () => useInvalidating(updateDocumentTemplate);
export const useDeleteDocumentTemplate = () => useInvalidating(deleteDocumentTemplate);
