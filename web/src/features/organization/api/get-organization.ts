import { queryOptions, useQuery } from '@tanstack/react-query';
import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

export type OrganizationDocument = components['schemas']['OrganizationResponse'];

/** GET /organization (getOrganization): the organization, its owner, plan and options, and the plan catalogue. */
export async function getOrganization(): Promise<OrganizationDocument> {
  return unwrap(await api.GET('/organization'));
}

export const organizationQueryOptions = () => queryOptions({ queryKey: ['organization'], queryFn: getOrganization });

export function useOrganization() {
  return useQuery(organizationQueryOptions());
}
