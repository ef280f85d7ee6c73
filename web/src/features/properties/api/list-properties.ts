import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components, paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/data-list.tsx';
import { api } from '../../../session/session.ts';

export type PropertySort = NonNullable<NonNullable<paths['/properties']['get']['parameters']['query']>['sort']>;
export type Property = components['schemas']['Property'];
/** A stored property's attributes: the contract answers every setting (null where it does not apply). */
export type PropertyAttributes = Required<components['schemas']['PropertySettings']> & Property['attributes'];
export type PropertyScopeFilter = 10 | 20 | undefined;

/** GET /properties (listProperties): one page of definitions, the organization's maximum in meta.maxProperties. */
export async function listProperties(params: ListParams<PropertySort>, scope: PropertyScopeFilter) {
  const query = { ...listQuery(params), ...(scope ? { 'filter[scope]': scope } : {}) };
  return unwrap(await api.GET('/properties', { params: { query } }));
}

export const propertiesQueryOptions = (params: ListParams<PropertySort>, scope: PropertyScopeFilter) =>
  queryOptions({ queryKey: ['properties', 'list', params, scope], queryFn: () => listProperties(params, scope) });

export function useProperties(params: ListParams<PropertySort>, scope: PropertyScopeFilter) {
  return useQuery({ ...propertiesQueryOptions(params, scope), placeholderData: keepPreviousData });
}
