import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type ECertificate = components['schemas']['ECertificateResponse']['data'];
export type ECertificateStatus = components['schemas']['ECertificateStatus'];

/** GET /me/e-certificate (getMyECertificate): the caller's certificate, status not_registered when there is none. */
export async function getMyECertificate() {
  return unwrap(await api.GET('/me/e-certificate')).data;
}

export const eCertificateQueryOptions = () => queryOptions({ queryKey: ['e-certificate'], queryFn: getMyECertificate });

export function useMyECertificate() {
  return useQuery(eCertificateQueryOptions());
}
