/*
 * An endpoint row, its resource in the contract, and the check of a URL an administrator saves (scheme, no user
 * info, and a host that resolves only to addresses the guard allows).
 */
import { hostOf, resolveAllowed } from './address-guard.ts';
import { AppError } from '../../core/plugins/index.ts';
import type { Ctx, WebhooksConfig } from './config.ts';

export interface EndpointRow {
  id: string;
  organization_id: string;
  url: string;
  description: string;
  event_types: string[];
  enabled: boolean;
  disabled_reason: 'automatic' | 'manual' | null;
  disabled_at: Date | null;
  secret_sealed: Uint8Array;
  previous_secret_sealed: Uint8Array | null;
  previous_secret_expires_at: Date | null;
  failing_since: Date | null;
  last_success_at: Date | null;
  lock_version: number;
  created_at: Date;
  updated_at: Date;
}

const iso = (value: Date | null) => (value ? new Date(value).toISOString() : null);

/** The endpoint as the contract's WebhookEndpointResource (never a secret). */
export function endpointResource(row: EndpointRow) {
  return {
    type: 'WebhookEndpoint' as const,
    id: row.id,
    attributes: {
      url: row.url,
      description: row.description,
      eventTypes: row.event_types as never[],
      enabled: row.enabled,
      disabledReason: row.disabled_reason,
      disabledAt: iso(row.disabled_at),
      failingSince: iso(row.failing_since),
      lastSuccessAt: iso(row.last_success_at),
      previousSecretExpiresAt: iso(row.previous_secret_expires_at),
      lockVersion: row.lock_version,
      createdAt: iso(row.created_at)!,
      updatedAt: iso(row.updated_at)!,
    },
  };
}

/** The organization's endpoint, or NOT_FOUND (another organization's too). */
export async function endpointOf(ctx: Ctx, organizationId: string, endpointId: string): Promise<EndpointRow> {
  const row = await ctx.db('webhook_endpoints').where({ id: endpointId, organization_id: organizationId }).first();
  if (!row) throw new AppError('NOT_FOUND');
  return row as EndpointRow;
}

const POINTER = '/data/attributes/url';

/** Checks a URL to save: WEBHOOK_URL_INVALID for its form, WEBHOOK_URL_FORBIDDEN for where it leads. */
export async function assertDeliverableUrl(config: WebhooksConfig, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new AppError('WEBHOOK_URL_INVALID', { pointer: POINTER });
  }
  const schemeOk = url.protocol === 'https:' || (config.allowHttp && url.protocol === 'http:');
  if (!schemeOk || url.username || url.password || !url.hostname) {
    throw new AppError('WEBHOOK_URL_INVALID', { pointer: POINTER });
  }
  try {
    await resolveAllowed(hostOf(url), config);
  } catch {
    // Not allowed, or not resolving: either way nothing could be delivered there.
    throw new AppError('WEBHOOK_URL_FORBIDDEN', { pointer: POINTER });
  }
  return url.toString();
}
