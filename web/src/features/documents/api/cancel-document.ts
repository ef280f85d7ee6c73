import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /documents/{documentId}/cancel (cancelDocument): the reason is required; the data is kept. */
export async function cancelDocument({
  documentId,
  reason,
  lockVersion,
}: {
  documentId: string;
  reason: string;
  lockVersion: number;
}) {
  return unwrap(
    await api.POST('/documents/{documentId}/cancel', {
      params: { path: { documentId } },
      body: { data: { type: 'DocumentCancel', attributes: { reason, lockVersion } } },
    }),
  ).data;
}

export function useCancelDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
