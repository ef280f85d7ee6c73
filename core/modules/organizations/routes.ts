import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { AppError } from '../../http/errors.ts';
import { isValidCorporateNumber } from './corporate-number.ts';
import { lookupCorporateNumber } from './corporate-number-lookup.ts';
import { organizationBody, organizationRow } from './organization-resource.ts';
import { passwordPolicyRoutes } from './password-policy-routes.ts';
import { maxGroupsOf } from './plan-limits.ts';
import { updateOrganizationRoute } from './update-organization.ts';

/** The organization settings area: information, plan and options, corporate number lookup, password policy. */
export function organizationRoutes(api: ApiRouter, deps: CoreDeps): void {
  const { knex, config } = deps;
  const admin = { permission: 'organization:manage' } as const;

  // Every member may read the organization (owner, plan); only administrators change it.
  api.operation('getOrganization', async ({ principal }) => ({
    body: await organizationBody(knex, await organizationRow(knex, principal.organizationId), principal, maxGroupsOf),
  }));

  updateOrganizationRoute(api, deps);

  api.operation('lookupCorporateNumber', admin, async ({ query, req }) => {
    const number = query.number.trim();
    if (!isValidCorporateNumber(number)) throw new AppError('CORPORATE_NUMBER_INVALID', { pointer: '/number' });
    const result = await lookupCorporateNumber(config.corporateNumberApi, number, req.log);
    if (result.status === 'notFound') throw new AppError('CORPORATE_INFO_NOT_FOUND');
    const found = result.status === 'found' ? result : null;
    return {
      body: {
        data: {
          type: 'CorporateNumberLookup' as const,
          id: number,
          attributes: {
            status: result.status,
            name: found?.name ?? null,
            address: found?.address ?? null,
            nameEn: found?.nameEn ?? null,
            updatedOn: found?.updatedOn ?? null,
          },
        },
      },
    };
  });

  passwordPolicyRoutes(api, deps);
}
