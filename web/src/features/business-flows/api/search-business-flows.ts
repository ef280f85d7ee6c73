import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { conditionFilter, DATE_FIELDS, type FlowSearch, isBlankCondition } from '../search-params.ts';

export type BusinessFlowItem = components['schemas']['BusinessFlow'];

/** The filter of searchBusinessFlows and exportBusinessFlowsCsv: only what the search sets. */
export function searchFilter(search: FlowSearch) {
  const dates = Object.fromEntries(DATE_FIELDS.filter((f) => search.dates[f]).map((f) => [f, search.dates[f]]));
  const properties = search.conditions.filter((c) => !isBlankCondition(c)).map(conditionFilter);
  return {
    ...(search.q ? { q: search.q } : {}),
    ...(search.statuses.length > 0 ? { status: search.statuses } : {}),
    ...(search.workspaceId ? { workspaceId: search.workspaceId } : {}),
    ...dates,
    ...(properties.length > 0 ? { properties } : {}),
  };
}

/** POST /business-flows/search (searchBusinessFlows): one page of the flows that meet every condition. */
export async function searchBusinessFlows(search: FlowSearch) {
  const body = {
    filter: searchFilter(search),
    sort: search.sort,
    page: { number: search.page, size: search.size },
  } as components['schemas']['BusinessFlowSearchRequest'];
  return unwrap(await api.POST('/business-flows/search', { body }));
}

export const flowSearchQueryOptions = (search: FlowSearch) =>
  queryOptions({ queryKey: ['business-flows', 'search', search], queryFn: () => searchBusinessFlows(search) });

export function useFlowSearch(search: FlowSearch) {
  return useQuery({ ...flowSearchQueryOptions(search), placeholderData: keepPreviousData });
}
