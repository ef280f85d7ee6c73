import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /workspaces/{workspaceId} (getWorkspace): its participants are the task editor's assignees. */
export async function getWorkspace(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}', { params: { path: { workspaceId } } })).data;
}

export const workspaceQueryOptions = (workspaceId: string) =>
  queryOptions({ queryKey: ['workspaces', 'detail', workspaceId], queryFn: () => getWorkspace(workspaceId) });

export function useWorkspace(workspaceId: string | undefined) {
  return useQuery({ ...workspaceQueryOptions(workspaceId ?? ''), enabled: Boolean(workspaceId) });
}

/** GET /workspaces/{workspaceId}/one-time-users (listOneTimeUsers): the guests a task may be assigned to. */
export async function listOneTimeUsers(workspaceId: string) {
  return unwrap(await api.GET('/workspaces/{workspaceId}/one-time-users', { params: { path: { workspaceId } } })).data;
}

export function useOneTimeUsers(workspaceId: string, enabled: boolean) {
  return useQuery({
    // The key the invitation screens use for the same list, so an invitation made there shows here too.
    queryKey: ['one-time-invitations', 'workspace', workspaceId],
    queryFn: () => listOneTimeUsers(workspaceId),
    enabled,
  });
}

/** GET /roles (listRoles): the own organization's roles, for group tasks. */
export async function listRoles() {
  return unwrap(await api.GET('/roles', { params: { query: { 'page[size]': 100 } } }));
}

export function useRoles(enabled: boolean) {
  return useQuery({ queryKey: ['roles', 'list', 'task-editor'], queryFn: listRoles, enabled });
}

/** GET /properties?filter[scope]=20 (listProperties): the organization's document-scope properties. */
export async function listDocumentProperties() {
  return unwrap(await api.GET('/properties', { params: { query: { 'filter[scope]': 20, 'page[size]': 100 } } }));
}

export function useDocumentProperties(enabled: boolean) {
  return useQuery({ queryKey: ['properties', 'list', 'document-scope'], queryFn: listDocumentProperties, enabled });
}

/** GET /document-templates (listDocumentTemplates): templates a new document may take its tasks from. */
export async function listDocumentTemplates() {
  return unwrap(await api.GET('/document-templates', { params: { query: { 'page[size]': 100 } } }));
}

export function useDocumentTemplates() {
  return useQuery({ queryKey: ['document-templates', 'list', 'upload'], queryFn: listDocumentTemplates });
}
