import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BusinessFlowUpdateAttributes = components['schemas']['BusinessFlowUpdateRequest']['data']['attributes'];

const path = (businessFlowId: string) => ({ params: { path: { businessFlowId } } });

/** PATCH /business-flows/{businessFlowId} (updateBusinessFlow): stale lockVersion 409; cancelled 409. */
export async function updateBusinessFlow(input: { businessFlowId: string; attributes: BusinessFlowUpdateAttributes }) {
  return unwrap(
    await api.PATCH('/business-flows/{businessFlowId}', {
      ...path(input.businessFlowId),
      body: { data: { type: 'BusinessFlow', attributes: input.attributes } },
    }),
  ).data;
}

/** POST /business-flows/{businessFlowId}/complete (completeBusinessFlow): the completion mail goes to every party. */
export async function completeBusinessFlow(input: { businessFlowId: string; lockVersion: number }) {
  return unwrap(
    await api.POST('/business-flows/{businessFlowId}/complete', {
      ...path(input.businessFlowId),
      body: { data: { type: 'BusinessFlow', attributes: { lockVersion: input.lockVersion } } },
    }),
  ).data;
}

/** POST /business-flows/{businessFlowId}/incomplete (markBusinessFlowIncomplete). */
export async function markIncomplete(input: { businessFlowId: string; lockVersion: number }) {
  return unwrap(
    await api.POST('/business-flows/{businessFlowId}/incomplete', {
      ...path(input.businessFlowId),
      body: { data: { type: 'BusinessFlow', attributes: { lockVersion: input.lockVersion } } },
    }),
  ).data;
}

/** POST /business-flows/{businessFlowId}/cancel (cancelBusinessFlow): the reason is required; data is kept. */
export async function cancelBusinessFlow(input: { businessFlowId: string; lockVersion: number; comment: string }) {
  return unwrap(
    await api.POST('/business-flows/{businessFlowId}/cancel', {
      ...path(input.businessFlowId),
      body: { data: { type: 'BusinessFlow', attributes: { lockVersion: input.lockVersion, comment: input.comment } } },
    }),
  ).data;
}

/**
 * A change of a flow: on success its detail and the lists are read again. A refusal reloads nothing, so a 409
 * stays on screen with its reload action instead of silently replacing what the user typed.
 */
function useFlowChange<I extends { businessFlowId: string }, R>(mutationFn: (input: I) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_result, input) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['business-flows', 'detail', input.businessFlowId] }),
        queryClient.invalidateQueries({ queryKey: ['business-flows', 'search'] }),
        queryClient.invalidateQueries({ queryKey: ['business-flows', 'list'] }),
      ]),
  });
}

export const useUpdateBusinessFlow = () => useFlowChange(updateBusinessFlow);
export const useCompleteBusinessFlow = () => useFlowChange(completeBusinessFlow);
export const useMarkIncomplete = () => useFlowChange(markIncomplete);
export const useCancelBusinessFlow = () => useFlowChange(cancelBusinessFlow);
