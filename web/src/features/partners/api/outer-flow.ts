import { queryOptions, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OuterFlow = components['schemas']['BusinessFlowResponse']['data'];
export type OuterTask = components['schemas']['Task'];

/** GET /business-flows/{businessFlowId} (getBusinessFlow): what the partner may see of the flow. */
export async function getOuterFlow(businessFlowId: string) {
  return unwrap(await api.GET('/business-flows/{businessFlowId}', { params: { path: { businessFlowId } } })).data;
}

export const outerFlowQueryOptions = (businessFlowId: string) =>
  queryOptions({ queryKey: ['outer-flow', businessFlowId], queryFn: () => getOuterFlow(businessFlowId) });

export function useOuterFlow(businessFlowId: string) {
  return useQuery(outerFlowQueryOptions(businessFlowId));
}

/** GET /workspaces/{workspaceId} (getWorkspace): the owner organization and the partner's rights there. */
export async function getOuterWorkspace(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId } } })).data;
}

export function useOuterWorkspace(workspaceId: string | undefined) {
  return useQuery({
    queryKey: ['outer-flow', 'workspace', workspaceId],
    queryFn: () => getOuterWorkspace(workspaceId!),
    enabled: Boolean(workspaceId),
  });
}

/** GET /documents/{documentId}/tasks (getDocumentTasks) of every document of the flow. */
export async function getDocumentTasks(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}/tasks', { params: { path: { documentId } } })).data;
}

export function useDocumentsTasks(documentIds: string[]) {
  return useQueries({
    queries: documentIds.map((documentId) => ({
      queryKey: ['outer-flow', 'tasks', documentId],
      queryFn: () => getDocumentTasks(documentId),
    })),
  });
}

/** POST /tasks/{taskId}/approve or /read (approveTask, readTask) with the task's lockVersion. */
export async function runTask({ task }: { task: OuterTask }) {
  const body = { data: { type: 'TaskExecution' as const, attributes: { lockVersion: task.attributes.lockVersion } } };
  const params = { path: { taskId: task.id } };
  if (task.attributes.type === 'read') return unwrap(await api.POST('/tasks/{taskId}/read', { params, body }));
  return unwrap(await api.POST('/tasks/{taskId}/approve', { params, body }));
}

export function useRunTask() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runTask,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['outer-flow'] }),
        queryClient.invalidateQueries({ queryKey: ['documents'] }),
        queryClient.invalidateQueries({ queryKey: ['tasks'] }),
      ]),
  });
}
