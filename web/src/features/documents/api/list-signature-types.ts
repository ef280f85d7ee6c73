import { queryOptions, useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/** GET /signature-types (listSignatureTypes): the types the task editor offers, with whether each takes a code. */
export async function listSignatureTypes() {
  return unwrap(await api.GET('/signature-types')).data;
}

export const signatureTypesQueryOptions = () =>
  queryOptions({ queryKey: ['signature-types'], queryFn: listSignatureTypes, staleTime: 5 * 60_000 });

export function useSignatureTypes(enabled: boolean) {
  return useQuery({ ...signatureTypesQueryOptions(), enabled });
}
