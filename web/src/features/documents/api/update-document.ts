import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type DocumentUpdateAttributes = components['schemas']['DocumentUpdateRequest']['data']['attributes'];

/** PATCH /documents/{documentId} (updateDocument): name (owner organization only), type, properties; lockVersion. */
export async function updateDocument({
  documentId,
  attributes,
}: {
  documentId: string;
  attributes: DocumentUpdateAttributes;
}) {
  return unwrap(
    await api.PATCH('/documents/{documentId}', {
      params: { path: { documentId } },
      body: { data: { type: 'Document', attributes } },
    }),
  ).data;
}

export function useUpdateDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDocument,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['documents'] }),
  });
}
