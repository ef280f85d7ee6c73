import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../../../core/contract/api.gen.ts';
import type { SessionGuard } from '../session/guard.ts';
import { ApiError, permissionsVersionSeen } from './errors.ts';

export type ApiClient = Client<paths>;

const BASE_URL = '/core/v1';

/** Network failures surface as an ApiError too, so every caller handles one error type. */
const networkErrors: Middleware = {
  onError({ error }) {
    return new ApiError(
      0,
      [],
      error instanceof DOMException && error.name === 'AbortError' ? 'UNKNOWN_ERROR' : 'NETWORK_ERROR',
    );
  },
};

/** No timeout (the spec's 0): uploads and signatures may take long; the user can always navigate away. */
function baseClient(): ApiClient {
  const client = createClient<paths>({ baseUrl: BASE_URL });
  client.use(networkErrors);
  return client;
}

/** Sends the guard's bearer token, refreshed first when expired, and counts each answer as activity. */
function bearer(guard: SessionGuard): Middleware {
  return {
    async onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${await guard.accessToken()}`);
      // Writes carry the permissions the screen was built with: changed since, the API answers 409
      // PERMISSIONS_CHANGED and the screen offers a reload (components/api-error-notice.tsx).
      const version = permissionsVersionSeen();
      if (version && request.method !== 'GET') request.headers.set('X-Permissions-Version', version);
      return request;
    },
    onResponse({ response }) {
      if (response.ok) guard.touch();
      return response;
    },
  };
}

/** The signed-in user's client (localStorage tokens). */
export function createAuthenticatedClient(guard: SessionGuard): ApiClient {
  const client = baseClient();
  client.use(bearer(guard));
  return client;
}

/** The one-time (guest) flows' client: the same rules over sessionStorage tokens. */
export function createOneTimeClient(guard: SessionGuard): ApiClient {
  return createAuthenticatedClient(guard);
}

/** Public calls: sign-in, sign-up, terms, reminders. */
export function createAnonymousClient(): ApiClient {
  return baseClient();
}
