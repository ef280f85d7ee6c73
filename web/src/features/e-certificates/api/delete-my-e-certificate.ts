import { useMutation, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** DELETE /me/e-certificate (deleteMyECertificate): agents can no longer sign with it either. */
export async function deleteMyECertificate() {
  unwrap(await api.DELETE('/me/e-certificate'));
}

export function useDeleteMyECertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMyECertificate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['e-certificate'] }),
  });
}
