import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
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
