import { useMutation } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** POST /tasks/{taskId}/signing-code (requestSigningCode): a 6-digit code by SMS or e-mail, valid 10 minutes. */
export async function requestSigningCode(taskId: string) {
  return unwrap(await api.POST('/tasks/{taskId}/signing-code', { params: { path: { taskId } } })).data.attributes;
}

export function useRequestSigningCode() {
  return useMutation({ mutationFn: requestSigningCode });
}
