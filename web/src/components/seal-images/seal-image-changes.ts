import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../api/errors.ts';
import { sealImagesQueryOptions } from '../../api/seal-images.ts';
import { api } from '../../session/session.ts';

/** The multipart form of an upload (a File keeps its file name); openapi-fetch sends FormData as it is. */
function sealImageForm(file: File, name: string | undefined): FormData {
  const form = new FormData();
  form.append('file', file, file.name);
  if (name !== undefined) form.append('name', name);
  return form;
}

/** POST /me/seal-images (createMySealImage): a PNG, JPEG or GIF and its name (the file name when empty). */
export async function createMySealImage({ file, name }: { file: File; name: string }) {
  const trimmed = name.trim() || undefined;
  return unwrap(
    await api.POST('/me/seal-images', {
      // The contract types the binary part as a string; the serializer sends the File itself.
      body: { file: file as unknown as string, name: trimmed },
      bodySerializer: () => sealImageForm(file, trimmed),
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
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sealImagesQueryOptions().queryKey, exact: true }),
  });
}

export const useCreateSealImage = () => useSealImagesChange(createMySealImage);
export const useDeleteSealImage = () => useSealImagesChange(deleteMySealImage);
