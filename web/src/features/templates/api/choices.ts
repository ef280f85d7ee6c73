import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/*
 * What the template forms choose from: the organization's groups and roles (first 100 of each, by name) and the
 * document templates a flow template may list. Only administrators edit templates, and they may read all three.
 */

export const groupChoicesQueryOptions = () =>
  queryOptions({
    queryKey: ['templates', 'choices', 'groups'],
    queryFn: async () =>
      unwrap(await api.GET('/groups', { params: { query: { sort: 'name', 'page[size]': 100 } } })).data.map((g) => ({
        id: g.id,
        name: g.attributes.name,
      })),
  });

export const roleChoicesQueryOptions = () =>
  queryOptions({
    queryKey: ['templates', 'choices', 'roles'],
    queryFn: async () =>
      unwrap(await api.GET('/roles', { params: { query: { sort: 'name', 'page[size]': 100 } } })).data.map((r) => ({
        id: r.id,
        name: r.attributes.name,
        taskPermissions: r.attributes.taskPermissions,
      })),
  });

export const documentTemplateChoicesQueryOptions = () =>
  queryOptions({
    queryKey: ['templates', 'choices', 'document-templates'],
    queryFn: async () =>
      unwrap(await api.GET('/document-templates', { params: { query: { sort: 'name', 'page[size]': 100 } } })).data.map(
        (d) => ({ id: d.id, name: d.attributes.name }),
      ),
  });

export const useGroupChoices = () => useQuery(groupChoicesQueryOptions());
export const useRoleChoices = () => useQuery(roleChoicesQueryOptions());
export const useDocumentTemplateChoices = () => useQuery(documentTemplateChoicesQueryOptions());
