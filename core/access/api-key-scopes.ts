import { assertPlanFeature } from './plans.ts';
import type { ContractOperation } from '../contract/document.ts';
import type { components } from '../contract/api.gen.ts';
import type { Principal } from '../http/context.ts';
import { AppError } from '../http/errors.ts';

/** A scope of an API key: `<area>:read` or `<area>:write` (the ApiKeyScope enum of openapi.yaml). */
export type ApiKeyScope = components['schemas']['ApiKeyScope'];

/** Every scope, in the order screens list them. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = [
  'flows:read',
  'flows:write',
  'users:read',
  'users:write',
  'organization:read',
  'organization:write',
  'logs:read',
];

type Area = 'flows' | 'users' | 'organization' | 'logs';
type KeyOperation = Pick<ContractOperation, 'operationId' | 'tags' | 'method'>;

/** The area of each contract tag; a tag not listed here (a plugin's new one) is `organization`, the strictest. */
const AREA_OF_TAG: Record<string, Area> = {
  workspaces: 'flows',
  'business-flows': 'flows',
  documents: 'flows',
  tasks: 'flows',
  templates: 'flows',
  properties: 'flows',
  signing: 'flows',
  'one-time-users': 'flows',
  'ai-ocr': 'flows',
  box: 'flows',
  users: 'users',
  groups: 'users',
  roles: 'users',
  batch: 'users',
  logs: 'logs',
};

/** Operations whose tag does not tell their area: the caller's own inbox is the tasks it may execute. */
const AREA_OF_OPERATION: Record<string, Area> = { getInbox: 'flows' };

/**
 * Tags a key never calls: a person's own sign-in and account (getCurrentUser aside), the API keys themselves (a
 * key minting or widening keys would escape its own scopes), and a person's own signing means (e-certificates,
 * seal images: a service user never signs).
 */
const PERSONAL_TAGS = new Set(['auth', 'signup', 'me', 'api-keys', 'e-certificates', 'seal-images']);

/** Areas whose operations are administrators' only: a key acts as an administrator in them, and only there. */
const ADMIN_AREAS: readonly Area[] = ['users', 'organization', 'logs'];

function areaOf(tag: string): Area {
  return AREA_OF_TAG[tag] ?? 'organization';
}

/** The scope an operation needs from a key, or 'none' (GET /me), or null when no key may call it. */
export function scopeNeeded(op: KeyOperation): ApiKeyScope | 'none' | null {
  const tag = op.tags[0] ?? '';
  if (op.operationId === 'getCurrentUser') return 'none';
  const area = AREA_OF_OPERATION[op.operationId] ?? (PERSONAL_TAGS.has(tag) ? null : areaOf(tag));
  if (area === null) return null;
  const scope = `${area}:${op.method === 'GET' ? 'read' : 'write'}`;
  return (API_KEY_SCOPES as readonly string[]).includes(scope) ? (scope as ApiKeyScope) : `${area}:read`;
}

/** Whether a set of scopes grants one: `<area>:write` includes `<area>:read`. */
export function grants(scopes: readonly string[], scope: ApiKeyScope): boolean {
  if (scopes.includes(scope)) return true;
  const [area, access] = scope.split(':');
  return access === 'read' && scopes.includes(`${area}:write`);
}

/**
 * Whether a key acts as an administrator for this one operation: its area is an administrators' area (users,
 * organization, logs) and the key's scopes grant the scope it needs. Everywhere else (flows) the key's service user
 * has only its own groups' and role's rights; the service user is never an administrator at rest.
 */
export function apiKeyActsAsAdmin(op: KeyOperation, scopes: readonly string[]): boolean {
  const scope = scopeNeeded(op);
  if (scope === null || scope === 'none') return false;
  return ADMIN_AREAS.includes(scope.split(':')[0] as Area) && grants(scopes, scope);
}

/**
 * The checks a key principal passes after the organization's IP list and before the route's own gates: the
 * organization still has the `apiKeys` feature (403 PLAN_FEATURE_UNAVAILABLE), the operation accepts keys (403
 * API_KEY_NOT_ALLOWED) and the key holds its scope (403 API_KEY_SCOPE_MISSING naming it). It then decides, for this
 * request only, whether the key acts as an administrator (apiKeyActsAsAdmin).
 */
export function assertApiKeyMayCall(op: KeyOperation, principal: Principal): void {
  if (!principal.apiKey) return;
  assertPlanFeature(principal, 'apiKeys');
  const scope = scopeNeeded(op);
  if (scope === null) throw new AppError('API_KEY_NOT_ALLOWED');
  if (scope !== 'none' && !grants(principal.apiKey.scopes, scope)) {
    throw new AppError('API_KEY_SCOPE_MISSING', { params: { scope } });
  }
  principal.isAdmin = apiKeyActsAsAdmin(op, principal.apiKey.scopes);
}
