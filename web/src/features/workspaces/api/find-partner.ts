import { unwrap } from '../../../api/errors.ts';
import { api } from '../../../session/session.ts';

/**
 * GET /partner-organizations?filter[corporateNumber]= (findPartnerOrganization): exactly the one registered
 * organization with that corporate number, or 404 PARTNER_ORGANIZATION_NOT_FOUND / NOT_FOUND.
 */
export async function findPartnerOrganization(corporateNumber: string) {
  return unwrap(
    await api.GET('/partner-organizations', { params: { query: { 'filter[corporateNumber]': corporateNumber } } }),
  ).data;
}
