import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../core/contract/api.gen.ts';
import { api } from '../session/session.ts';
import { downloadedFile } from './download.ts';
import { unwrap } from './errors.ts';

// The caller's seal images are read by the seal image settings and by the signing screen's seal tool, so their
// fetchers live here rather than in one of those features.

export type SealImage = components['schemas']['SealImage'];

/** GET /me/seal-images (listMySealImages): the caller's seal images, newest first, and how many are allowed. */
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

/** An image's bytes never change, so they are fetched once; nothing is fetched without an image. */
export function useSealImageContent(sealImageId: string | undefined) {
  return useQuery({
    queryKey: ['seal-images', 'content', sealImageId],
    queryFn: () => getSealImageContent(sealImageId ?? ''),
    enabled: Boolean(sealImageId),
    staleTime: Infinity,
  });
}
