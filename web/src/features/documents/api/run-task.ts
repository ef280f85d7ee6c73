import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /tasks/{taskId}/approve (approveTask). */
export async function approveTask(taskId: string) {
  return unwrap(
    await api.POST('/tasks/{taskId}/approve', {
      params: { path: { taskId } },
      body: { data: { type: 'TaskExecution', attributes: {} } },
    }),
  );
}

/** POST /tasks/{taskId}/read (readTask): the view-only acknowledgement. */
export async function readTask(taskId: string) {
  return unwrap(
    await api.POST('/tasks/{taskId}/read', {
      params: { path: { taskId } },
      body: { data: { type: 'TaskExecution', attributes: {} } },
    }),
  );
}

/** POST /tasks/{taskId}/remand (remandDocument): back to an earlier order, with a reason. */
export async function remandDocument({ taskId, reason, toOrder }: { taskId: string; reason: string; toOrder: number }) {
  return unwrap(
    await api.POST('/tasks/{taskId}/remand', {
      params: { path: { taskId } },
      body: { data: { type: 'TaskRemand', attributes: { reason, toOrder } } },
    }),
  );
}

/** POST /tasks/{taskId}/cancel (cancelTask): cancels the document, with a reason. */
export async function cancelTask({ taskId, reason }: { taskId: string; reason: string }) {
  return unwrap(
    await api.POST('/tasks/{taskId}/cancel', {
      params: { path: { taskId } },
      body: { data: { type: 'TaskCancel', attributes: { reason } } },
    }),
  );
}

/** A task step as a mutation; the document, its tasks and "my tasks" are fetched again after it. */
export function useTaskStep<V>(step: (variables: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: step,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['documents'] }),
        queryClient.invalidateQueries({ queryKey: ['tasks'] }),
      ]),
  });
}
