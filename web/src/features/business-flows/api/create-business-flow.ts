import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BusinessFlowCreateAttributes = components['schemas']['BusinessFlowCreateRequest']['data']['attributes'];

/**
 * POST /workspaces/{workspaceId}/business-flows (createBusinessFlow): from scratch or from a business flow template
 * (`businessFlowTemplateId`); property values are checked by the same rules as in the browser (422 with pointers).
 */
export async function createBusinessFlow(input: { workspaceId: string; attributes: BusinessFlowCreateAttributes }) {
  return unwrap(
    await api.POST('/workspaces/{workspaceId}/business-flows', {
      params: { path: { workspaceId: input.workspaceId } },
      body: { data: { type: 'BusinessFlow', attributes: input.attributes } },
    }),
  ).data;
}

export function useCreateBusinessFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBusinessFlow,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['business-flows'] }),
        queryClient.invalidateQueries({ queryKey: ['workspaces'] }),
      ]),
  });
}
