import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { ApiError, unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type BoxUpload = components['schemas']['BoxUpload'];
export type BoxUploadList = components['schemas']['BoxUploadList'];
export type BoxUploadStatus = components['schemas']['BoxUploadStatus'];

export const UPLOAD_PAGE_SIZE = 20;

/** An upload still on its way: the screens ask again until it is done or failed. */
export const inFlight = (upload: BoxUpload | null | undefined) =>
  upload?.attributes.status === 'queued' || upload?.attributes.status === 'uploading';

/** GET /box/uploads (listBoxUploads): newest change first. */
export async function listBoxUploads(page: number, status?: BoxUploadStatus): Promise<BoxUploadList> {
  const query = {
    'page[number]': page,
    'page[size]': UPLOAD_PAGE_SIZE,
    ...(status ? { 'filter[status]': status } : {}),
  };
  return unwrap(await api.GET('/box/uploads', { params: { query } }));
}

export const boxUploadsQueryOptions = (page: number, status?: BoxUploadStatus) =>
  queryOptions({ queryKey: ['box-uploads', page, status ?? ''], queryFn: () => listBoxUploads(page, status) });

export function useBoxUploads(page: number, status?: BoxUploadStatus) {
  return useQuery({
    ...boxUploadsQueryOptions(page, status),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some(inFlight) ? 3000 : false),
  });
}

/**
 * Keeps the connection's card in step with the uploads list, which is read by another request: an upload that settles
 * while the list is watched changes the connection's last upload, last error and failure count; one that failed for
 * Box's authorization after the connection was made means the connection has lost it (the server marks the
 * connection before it fails the upload) even when the card, read a moment earlier, says connected. Either asks for
 * the connection again (the second once per failure, so a card that stays connected is not asked in a loop).
 */
export function useConnectionFollowsUploads(
  list: BoxUploadList | undefined,
  connection: { status: string; connectedAt: string | null },
) {
  const client = useQueryClient();
  const seen = useRef(new Map<string, BoxUploadStatus>());
  const asked = useRef(new Set<string>());
  useEffect(() => {
    if (!list) return;
    let stale = false;
    for (const upload of list.data) {
      const { status, errorCode, updatedAt } = upload.attributes;
      const before = seen.current.get(upload.id);
      seen.current.set(upload.id, status);
      if (before !== undefined && before !== status && !inFlight(upload)) stale = true;
      const failure = `${upload.id}@${updatedAt}`;
      const authorizationLost =
        connection.status === 'connected' &&
        status === 'failed' &&
        errorCode === 'BOX_AUTH_FAILED' &&
        connection.connectedAt !== null &&
        Date.parse(updatedAt) > Date.parse(connection.connectedAt);
      if (authorizationLost && !asked.current.has(failure)) {
        asked.current.add(failure);
        stale = true;
      }
    }
    if (stale) void client.invalidateQueries({ queryKey: ['box-connection'] });
  }, [list, connection.status, connection.connectedAt, client]);
}

/**
 * GET /documents/{documentId}/box-upload (getDocumentBoxUpload): the document's upload, or null when it was never
 * sent (404 BOX_UPLOAD_NOT_FOUND).
 */
export async function getDocumentBoxUpload(documentId: string): Promise<BoxUpload | null> {
  const result = await api.GET('/documents/{documentId}/box-upload', { params: { path: { documentId } } });
  try {
    return unwrap(result).data;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'BOX_UPLOAD_NOT_FOUND') return null;
    throw error;
  }
}

export const documentBoxUploadQueryOptions = (documentId: string) =>
  queryOptions({ queryKey: ['box-uploads', 'document', documentId], queryFn: () => getDocumentBoxUpload(documentId) });

export function useDocumentBoxUpload(documentId: string) {
  return useQuery({
    ...documentBoxUploadQueryOptions(documentId),
    refetchInterval: (query) => (inFlight(query.state.data) ? 3000 : false),
  });
}

/** POST /documents/{documentId}/box-upload (sendDocumentToBox): queues the upload (administrators). */
export function useSendDocumentToBox(documentId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      unwrap(await api.POST('/documents/{documentId}/box-upload', { params: { path: { documentId } } })).data,
    onSuccess: (upload) => {
      client.setQueryData(documentBoxUploadQueryOptions(documentId).queryKey, upload);
      void client.invalidateQueries({ queryKey: ['box-uploads'], exact: false });
    },
  });
}
