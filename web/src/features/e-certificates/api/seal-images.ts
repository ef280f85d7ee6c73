import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { downloadedFile } from '../../../api/download.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { multipartForm } from './multipart.ts';

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

/** An image's bytes never change, so they are fetched once. */
export function useSealImageContent(sealImageId: string) {
  return useQuery({
    queryKey: ['seal-images', 'content', sealImageId],
    queryFn: () => getSealImageContent(sealImageId),
    staleTime: Infinity,
  });
}

/** POST /me/seal-images (createMySealImage): a PNG, JPEG or GIF and its name (the file name when empty). */
export async function createMySealImage({ file, name }: { file: File; name: string }) {
  const trimmed = name.trim() || undefined;
  return unwrap(
    await api.POST('/me/seal-images', {
      // The contract types the binary part as a string; the serializer sends the File itself.
      body: { file: file as unknown as string, name: trimmed },
      bodySerializer: () => multipartForm({ file, name: trimmed }),
    }),
  ).data;
}

/** DELETE /me/seal-images/{sealImageId} (deleteMySealImage): signatures already made keep their appearance. */
export async function deleteMySealImage(sealImageId: string) {
  unwrap(await api.DELETE('/me/seal-images/{sealImageId}', { params: { path: { sealImageId } } }));
}

function useSealImagesChange<V, R>(change: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['seal-images'], exact: true }),
  });
}

export const useCreateSealImage = () => useSealImagesChange(createMySealImage);
export const useDeleteSealImage = () => useSealImagesChange(deleteMySealImage);
