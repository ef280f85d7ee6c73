import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type FlowTemplate = components['schemas']['BusinessFlowTemplate'];

/** GET /business-flow-templates (listBusinessFlowTemplates): the first 100 by name, for the creation form's select. */
export async function listFlowTemplates() {
  const query = { sort: 'name', 'page[size]': 100 } as const;
  return unwrap(await api.GET('/business-flow-templates', { params: { query } })).data;
}

export const flowTemplatesQueryOptions = () =>
  queryOptions({ queryKey: ['business-flows', 'templates'], queryFn: listFlowTemplates });

export function useFlowTemplates(enabled: boolean) {
  return useQuery({ ...flowTemplatesQueryOptions(), enabled });
}
