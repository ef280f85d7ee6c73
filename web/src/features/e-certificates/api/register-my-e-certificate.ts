import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';
import { multipartForm } from './multipart.ts';

export interface CertificateUpload {
  file: File;
  pin: string;
  pinConfirmation: string;
}

/** PUT /me/e-certificate (registerMyECertificate): a PKCS#12 file with its PIN, replacing any earlier one. */
export async function registerMyECertificate(upload: CertificateUpload) {
  return unwrap(
    await api.PUT('/me/e-certificate', {
      // The contract types the binary part as a string; the serializer sends the File itself.
      body: { file: upload.file as unknown as string, pin: upload.pin, pinConfirmation: upload.pinConfirmation },
      bodySerializer: () => multipartForm({ ...upload }),
    }),
  ).data;
}

export function useRegisterMyECertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerMyECertificate,
    onSuccess: (certificate) => queryClient.setQueryData(['e-certificate'], certificate),
  });
}
