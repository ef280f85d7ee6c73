import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/data-list.tsx';
import { api } from '../../../session/session.ts';

export type MailTemplate = components['schemas']['MailTemplate'];
type Query = NonNullable<paths['/mail-templates']['get']['parameters']['query']>;
export type MailTemplateSort = NonNullable<Query['sort']>;
export type LocaleFilter = NonNullable<Query['filter[locale]']> | '';

export interface MailTemplateListParams extends ListParams<MailTemplateSort> {
  locale: LocaleFilter;
}

/** GET /mail-templates (listMailTemplates): every mail kind in each language, customised or built-in. */
export async function listMailTemplates(params: MailTemplateListParams) {
  const query: Query = { ...listQuery(params), ...(params.locale ? { 'filter[locale]': params.locale } : {}) };
  return unwrap(await api.GET('/mail-templates', { params: { query } }));
}

export const mailTemplatesQueryOptions = (params: MailTemplateListParams) =>
  queryOptions({ queryKey: ['mail-templates', 'list', params], queryFn: () => listMailTemplates(params) });

/** The page keeps showing the previous rows while the next page loads. */
export function useMailTemplates(params: MailTemplateListParams) {
  return useQuery({ ...mailTemplatesQueryOptions(params), placeholderData: keepPreviousData });
}
