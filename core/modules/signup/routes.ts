import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { signUp } from './service.ts';

export function signUpRoutes(api: ApiRouter, deps: CoreDeps): void {
  api.operation('signUp', async ({ body, req }) => {
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
