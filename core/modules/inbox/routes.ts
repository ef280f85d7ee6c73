import type { ApiRouter } from '../../contract/router.ts';
import type { CoreDeps } from '../../deps.ts';
import { inboxOf } from './inbox.ts';

/** The home screen's inbox: what waits for the signed-in user and what they wait for, in one request. */
export function inboxRoutes(api: ApiRouter, deps: CoreDeps): void {
  api.operation('getInbox', async ({ principal }) => ({
    body: await inboxOf(deps.knex, principal, deps.clock.now()),
  }));
}
