import type { components } from '../../../../../core/contract/api.gen.ts';
import { unwrap } from '../../../api/errors.ts';
import { anonymousApi, COOKIE_DELIVERY } from '../../../session/session.ts';

type CallbackAttributes = components['schemas']['SsoCallbackRequest']['data']['attributes'];

/** Where the started sign-in's browser secret waits for the provider's answer (this tab only). */
const PENDING_KEY = 'keiyaku.sso';

export interface PendingSso {
  binding: string;
  orgCode: string;
}

/** The redirect URI registered at the provider: the page origin (spec §7). */
export const redirectUri = () => `${window.location.origin}/`;

/** POST /sso/sign-ins (startSsoSignIn): keeps the binding secret in sessionStorage, answers where to go. */
export async function startSsoSignIn(orgCode: string): Promise<string> {
  const body = unwrap(
    await anonymousApi.POST('/sso/sign-ins', {
      body: { data: { type: 'SsoSignIn', attributes: { organizationCode: orgCode, redirectUri: redirectUri() } } },
    }),
  );
  const { authorizationUrl, binding } = body.data.attributes;
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ binding, orgCode } satisfies PendingSso));
  return authorizationUrl;
}

export function pendingSso(): PendingSso | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null') as PendingSso | null;
    return value && typeof value.binding === 'string' ? value : null;
  } catch {
    return null;
  }
}

export function forgetPendingSso(): void {
  sessionStorage.removeItem(PENDING_KEY);
}

/** POST /sso/sign-ins/callback (completeSsoSignIn): the access token (refresh token in the cookie). */
export async function completeSsoSignIn(attributes: Omit<CallbackAttributes, 'refreshTokenDelivery'>) {
  const body = unwrap(
    await anonymousApi.POST('/sso/sign-ins/callback', {
      body: { data: { type: 'SsoSignIn', attributes: { ...attributes, ...COOKIE_DELIVERY } } },
    }),
  );
  return body.data.attributes;
}
