import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** The most a list page holds (page[size] ≤ 100): the choices of the group and role pickers. */
const CHOICES = 100;

export interface Choice {
  id: string;
  name: string;
}

/** GET /groups (listGroups), names only, for the groups a user belongs to. */
export async function listGroupChoices(): Promise<{ choices: Choice[]; total: number }> {
  const body = unwrap(await api.GET('/groups', { params: { query: { sort: 'name', 'page[size]': CHOICES } } }));
  return { choices: body.data.map((g) => ({ id: g.id, name: g.attributes.name })), total: body.meta.total };
}

/** GET /roles (listRoles), names only, for the roles a user holds. */
export async function listRoleChoices(): Promise<{ choices: Choice[]; total: number }> {
  const body = unwrap(await api.GET('/roles', { params: { query: { sort: 'name', 'page[size]': CHOICES } } }));
  return { choices: body.data.map((r) => ({ id: r.id, name: r.attributes.name })), total: body.meta.total };
}

export const groupChoicesQueryOptions = () =>
  queryOptions({ queryKey: ['users', 'choices', 'groups'], queryFn: listGroupChoices });
export const roleChoicesQueryOptions = () =>
  queryOptions({ queryKey: ['users', 'choices', 'roles'], queryFn: listRoleChoices });

export function useGroupChoices(enabled = true) {
  return useQuery({ ...groupChoicesQueryOptions(), enabled });
}

export function useRoleChoices(enabled = true) {
  return useQuery({ ...roleChoicesQueryOptions(), enabled });
}
