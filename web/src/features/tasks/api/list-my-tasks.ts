import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { paths } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { type ListParams, listQuery } from '../../../components/list-params.ts';
import { api } from '../../../session/session.ts';

type Query = NonNullable<paths['/tasks/mine']['get']['parameters']['query']>;
export type MyTaskSort = NonNullable<Query['sort']>;
export type MyTaskType = NonNullable<Query['filter[type]']>;

/** GET /tasks/mine (listMyTasks): the tasks the caller can run now, across workspaces and organizations. */
export async function listMyTasks(params: ListParams<MyTaskSort>, type: MyTaskType | '') {
  const query = { ...listQuery(params), ...(type ? { 'filter[type]': type } : {}) };
  return unwrap(await api.GET('/tasks/mine', { params: { query } }));
}

export const myTasksQueryOptions = (params: ListParams<MyTaskSort>, type: MyTaskType | '') =>
  queryOptions({ queryKey: ['tasks', 'mine', params, type], queryFn: () => listMyTasks(params, type) });

export function useMyTasks(params: ListParams<MyTaskSort>, type: MyTaskType | '') {
  return useQuery({ ...myTasksQueryOptions(params, type), placeholderData: keepPreviousData });
}
