import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type VerificationReport = components['schemas']['VerificationReportResponse']['data'];
export type SignatureReport = components['schemas']['SignatureReport'];
export type RevisionChange = components['schemas']['RevisionChange'];

/** GET /documents/{documentId}/signatures (getDocumentSignatures): the report of the latest version. */
export async function getDocumentSignatures(documentId: string) {
  return unwrap(await api.GET('/documents/{documentId}/signatures', { params: { path: { documentId } } })).data;
}

export const documentSignaturesQueryOptions = (documentId: string) =>
  queryOptions({
    queryKey: ['documents', 'signatures', documentId],
    queryFn: () => getDocumentSignatures(documentId),
  });

export function useDocumentSignatures(documentId: string) {
  return useQuery(documentSignaturesQueryOptions(documentId));
}

/** POST /signatures/verify (verifySignatures): any PDF in the multipart part `file`; nothing is stored. */
export async function verifySignatures(file: File) {
  return unwrap(
    await api.POST('/signatures/verify', {
      // The contract types the binary part as a string; the serializer sends the File itself.
      body: { file: file as unknown as string },
      bodySerializer: () => {
        const form = new FormData();
        form.append('file', file, file.name);
        return form;
      },
    }),
  ).data;
}

export function useVerifySignatures() {
  return useMutation({ mutationFn: verifySignatures });
}
