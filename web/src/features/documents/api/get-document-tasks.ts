import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /documents/{documentId}/tasks (getDocumentTasks): the plan with each sign task's type and two-factor channel. */
export async function getDocumentTasks(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}/tasks', { params: { path: { documentId } } }));
}

export const documentTasksQueryOptions = (documentId: string) =>
  queryOptions({ queryKey: ['documents', 'tasks', documentId], queryFn: () => getDocumentTasks(documentId) });

export function useDocumentTasks(documentId: string) {
  return useQuery(documentTasksQueryOptions(documentId));
}
