import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiError, unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BoxFolderList = components['schemas']['BoxFolderList'];

/** Folders listed per page in the picker. */
export const FOLDER_PAGE = 50;

/** GET /box/folders (listBoxFolders): one page of a folder's subfolders, with the folder and its ancestors. */
export async function listBoxFolders(parentId: string, offset: number): Promise<BoxFolderList> {
  return unwrap(
    await api.GET('/box/folders', {
      params: { query: { parentId, 'page[offset]': offset, 'page[limit]': FOLDER_PAGE } },
    }),
  );
}

export const boxFoldersQueryOptions = (parentId: string, offset: number) =>
  queryOptions({
    queryKey: ['box-folders', parentId, offset],
    queryFn: () => listBoxFolders(parentId, offset),
    // Box is asked again when the picker opens, not on every focus.
    staleTime: 30_000,
    retry: false,
  });

export function useBoxFolders(parentId: string, offset: number, enabled: boolean) {
  const client = useQueryClient();
  const folders = useQuery({ ...boxFoldersQueryOptions(parentId, offset), enabled, placeholderData: keepPreviousData });
  // Box refused the stored authorization while listing: the server marked the connection, so the status card
  // shows the failure and the way to reconnect.
  const refused = folders.error instanceof ApiError && folders.error.code === 'BOX_AUTH_FAILED';
  useEffect(() => {
    if (refused) void client.invalidateQueries({ queryKey: ['box-connection'] });
  }, [refused, client]);
  return folders;
}
