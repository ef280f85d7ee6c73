import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/**
 * DELETE /business-flows/{businessFlowId}?lockVersion=N (discardBusinessFlowDraft): a draft goes with its documents,
 * tasks, fields and one-time invitations (204); a flow that is not a draft is 409 BUSINESS_FLOW_NOT_DRAFT.
 */
export async function discardBusinessFlowDraft(input: { businessFlowId: string; lockVersion: number }) {
  unwrap(
    await api.DELETE('/business-flows/{businessFlowId}', {
      params: { path: { businessFlowId: input.businessFlowId }, query: { lockVersion: input.lockVersion } },
    }),
  );
}

/** Discards a draft; the flow lists and the home screen's inbox are fetched again. */
export function useDiscardBusinessFlowDraft() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: discardBusinessFlowDraft,
    onSuccess: (_result, input) => {
      queryClient.removeQueries({ queryKey: ['business-flows', 'detail', input.businessFlowId] });
      void queryClient.invalidateQueries({ queryKey: ['business-flows'] });
      void queryClient.invalidateQueries({ queryKey: ['me', 'inbox'] });
    },
  });
}
