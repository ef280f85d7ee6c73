import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type SignTaskAttributes = components['schemas']['SignTaskRequest']['data']['attributes'];

/** POST /tasks/{taskId}/sign (signTask): signs the latest version with the task's type; the signed PDF is stored. */
export async function signTask({ taskId, attributes }: { taskId: string; attributes: SignTaskAttributes }) {
  return unwrap(
    await api.POST('/tasks/{taskId}/sign', {
      params: { path: { taskId } },
      body: { data: { type: 'TaskSignature', attributes } },
    }),
  );
}

/**
 * The document, its plan and "my tasks" are fetched again after a signature, without waiting: the screen turns to
 * its "signed" state at once instead of showing the task as no longer executable first.
 */
export function useSignTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signTask,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['documents'] });
      void queryClient.invalidateQueries({ queryKey: ['tasks'] });
    },
  });
}
