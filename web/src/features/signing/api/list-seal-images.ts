import { queryOptions, useQuery } from '@tanstack/react-query';
import { downloadedFile } from '../../../api/download.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /me/seal-images (listMySealImages): the caller's seal images, newest first. */
export async function listMySealImages() {
  return unwrap(await api.GET('/me/seal-images'));
}

export const sealImagesQueryOptions = () => queryOptions({ queryKey: ['seal-images'], queryFn: listMySealImages });

export function useSealImages() {
  return useQuery(sealImagesQueryOptions());
}

/** GET /me/seal-images/{sealImageId} (getMySealImageContent): the bytes, fetched with the session's token. */
export async function getSealImageContent(sealImageId: string) {
  const result = await api.GET('/me/seal-images/{sealImageId}', {
    params: { path: { sealImageId } },
    parseAs: 'blob',
  });
  return (await downloadedFile(result, 'seal')).blob;
}

/** An image's bytes never change, so they are fetched once. */
export function useSealImageContent(sealImageId: string | undefined) {
  return useQuery({
    queryKey: ['seal-images', 'content', sealImageId],
    queryFn: () => getSealImageContent(sealImageId ?? ''),
    enabled: Boolean(sealImageId),
    staleTime: Infinity,
  });
}
