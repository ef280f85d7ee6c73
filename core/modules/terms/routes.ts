import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { currentTerms, termsResource } from './service.ts';

export function termsRoutes(api: ApiRouter, deps: CoreDeps): void {
  api.operation('getCurrentTerms', async ({ req }) => ({
    body: { data: termsResource(await currentTerms(deps.knex, deps.clock.now()), req.locale) },
  }));
}
