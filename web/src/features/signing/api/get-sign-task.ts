import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type SignTask = components['schemas']['Task'];
export type SignatureTypeCode = components['schemas']['SignatureTypeCode'];

/** GET /documents/{documentId} (getDocument): the document's name and latest version. */
export async function getDocument(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}', { params: { path: { documentId } } })).data;
}

export const documentQueryOptions = (documentId: string) =>
  queryOptions({ queryKey: ['documents', 'detail', documentId], queryFn: () => getDocument(documentId) });

export function useDocument(documentId: string) {
  return useQuery(documentQueryOptions(documentId));
}

/** GET /documents/{documentId}/tasks (getDocumentTasks): the plan, each task with its signature type and two-factor. */
export async function getDocumentTasks(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}/tasks', { params: { path: { documentId } } }));
}

export const documentTasksQueryOptions = (documentId: string) =>
  queryOptions({ queryKey: ['documents', 'tasks', documentId], queryFn: () => getDocumentTasks(documentId) });

/** The sign task the screen runs, found in its document's plan (there is no GET of a single task). */
export function useSignTask(documentId: string, taskId: string) {
  const query = useQuery(documentTasksQueryOptions(documentId));
  return { ...query, task: query.data?.data.find((task) => task.id === taskId) };
}
