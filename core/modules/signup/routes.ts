import { perIp } from '../../access/rate-limits.ts';
import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { signUp } from './service.ts';

export function signUpRoutes(api: ApiRouter, deps: CoreDeps): void {
  // Every attempt counts, failed ones too: a refusal says whether a user ID or corporate number is taken, so the
  // limit also bounds how fast anyone can probe for them.
  api.operation('signUp', { rateLimit: [perIp('signUpPerIp')] }, async ({ body, req }) => {
    const { organization, ownerId } = await signUp(deps, body.data.attributes, req);
    return {
      status: 201,
      body: {
        data: {
          type: 'Organization',
          id: organization.id,
          attributes: {
            code: organization.code,
            name: organization.name,
            corporateNumber: organization.corporate_number,
            plan: organization.plan,
            lockVersion: organization.lock_version,
          },
          relationships: { owner: { data: { type: 'User', id: ownerId } } },
        },
      },
    };
  });
}
