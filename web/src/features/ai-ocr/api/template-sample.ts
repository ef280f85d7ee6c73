import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { downloadedFile } from '../../../api/download.ts';
import { ApiError, unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type ReadingPosition = components['schemas']['ReadingPosition'];
export type TemplateSample = NonNullable<components['schemas']['TemplateSample']>;
type DocumentTemplate = components['schemas']['DocumentTemplate'];
type DocumentTemplateList = components['schemas']['DocumentTemplateList'];

/**
 * GET /document-templates/{id}/sample (downloadDocumentTemplateSample): the sample PDF's bytes, or null when the
 * template has none (404 TEMPLATE_SAMPLE_NOT_FOUND).
 */
export async function downloadTemplateSample(documentTemplateId: string): Promise<Blob | null> {
  const result = await api.GET('/document-templates/{documentTemplateId}/sample', {
    params: { path: { documentTemplateId } },
    parseAs: 'blob',
  });
  try {
    return (await downloadedFile(result, 'sample.pdf')).blob;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'TEMPLATE_SAMPLE_NOT_FOUND') return null;
    throw error;
  }
}

/** The bytes of one stored sample: `uploadedAt` names the version, so a replaced sample is fetched anew. */
export const templateSampleQueryOptions = (documentTemplateId: string, uploadedAt: string) =>
  queryOptions({
    queryKey: ['ai-ocr', 'template-sample', documentTemplateId, uploadedAt],
    queryFn: () => downloadTemplateSample(documentTemplateId),
    staleTime: Infinity,
  });

export function useTemplateSampleFile(documentTemplateId: string | null, sample: TemplateSample | null) {
  return useQuery({
    ...templateSampleQueryOptions(documentTemplateId ?? '', sample?.uploadedAt ?? ''),
    enabled: Boolean(documentTemplateId && sample),
  });
}

/** PUT /document-templates/{id}/sample (uploadDocumentTemplateSample): administrators; the PDF in part `file`. */
export async function uploadTemplateSample(input: { documentTemplateId: string; file: File }) {
  const form = new FormData();
  form.append('file', input.file, input.file.name);
  return unwrap(
    await api.PUT('/document-templates/{documentTemplateId}/sample', {
      params: { path: { documentTemplateId: input.documentTemplateId } },
      // The contract types the binary part as a string; the serializer sends the File itself.
      body: { file: input.file as unknown as string },
      bodySerializer: () => form,
    }),
  ).data;
}

/**
 * Uploads a sample. The upload changes the template's lockVersion: the lists get the new template in place (not
 * refetched), so an open form keeps what was typed and saves against the version it now holds.
 */
export function useUploadTemplateSample() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadTemplateSample,
    onSuccess: (template: DocumentTemplate) =>
      client.setQueriesData<DocumentTemplateList>({ queryKey: ['templates', 'document', 'list'] }, (list) =>
        list ? { ...list, data: list.data.map((row) => (row.id === template.id ? template : row)) } : list,
      ),
  });
}
