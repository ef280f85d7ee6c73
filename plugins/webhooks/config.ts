/*
 * The webhooks plugin's configuration (KEIYAKU_PLUGIN_WEBHOOKS_*), validated at start. The retry schedule is the
 * wait after each failed attempt: the default 1 min, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h gives 8 attempts over
 * 27 h 36 min, so a receiver down for a day still gets the event.
 */
import type { PluginContext } from '../../core/plugins/index.ts';

export interface WebhooksConfig {
  /** http:// URLs too (tests, intranets); https only by default. */
  allowHttp: boolean;
  /** Every address allowed (loopback, private, link-local...): only for closed networks and tests. */
  allowPrivateNetworks: boolean;
  /** Addresses allowed although not public, as CIDRs ("10.1.0.0/16", "127.0.0.1/32", "fd00::/8"). */
  allowedCidrs: string[];
  /** Seconds to wait after each failed attempt; its length + 1 is the number of attempts. */
  retryScheduleSeconds: number[];
  /** One attempt's budget, connect to last byte. */
  timeoutSeconds: number;
  /** The response is read up to this many bytes, then the connection is cut (outcome too_large). */
  maxResponseBytes: number;
  /** An endpoint whose attempts all failed for this long is disabled (and its administrators mailed). */
  disableAfterSeconds: number;
  /** After a rotation, deliveries are signed with the old secret too for this long. */
  rotationOverlapSeconds: number;
  /** Endpoints per organization. */
  maxEndpoints: number;
}

export type Ctx = PluginContext<WebhooksConfig>;

export const DEFAULT_RETRY_SCHEDULE = [60, 300, 1800, 7200, 18000, 36000, 36000];

const list = (value: string | undefined) =>
  value === undefined
    ? undefined
    : value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean);

export const webhooksConfig = {
  schema: {
    type: 'object',
    properties: {
      allowHttp: { type: 'boolean', default: false },
      allowPrivateNetworks: { type: 'boolean', default: false },
      allowedCidrs: { type: 'array', items: { type: 'string', pattern: '^[0-9a-fA-F:.]+/[0-9]{1,3}$' }, default: [] },
      retryScheduleSeconds: {
        type: 'array',
        items: { type: 'integer', minimum: 1, maximum: 7 * 86400 },
        minItems: 0,
        maxItems: 20,
        default: DEFAULT_RETRY_SCHEDULE,
      },
      timeoutSeconds: { type: 'number', minimum: 0.1, maximum: 60, default: 10 },
      maxResponseBytes: { type: 'integer', minimum: 1024, maximum: 1048576, default: 65536 },
      disableAfterSeconds: { type: 'integer', minimum: 60, default: 86400 },
      rotationOverlapSeconds: { type: 'integer', minimum: 0, maximum: 30 * 86400, default: 86400 },
      maxEndpoints: { type: 'integer', minimum: 1, maximum: 100, default: 10 },
    },
  },
  read: (_config: unknown, slice: Record<string, string>) => ({
    allowHttp: slice.ALLOW_HTTP,
    allowPrivateNetworks: slice.ALLOW_PRIVATE_NETWORKS,
    allowedCidrs: list(slice.ALLOWED_CIDRS),
    retryScheduleSeconds: list(slice.RETRY_SCHEDULE_SECONDS),
    timeoutSeconds: slice.TIMEOUT_SECONDS,
    maxResponseBytes: slice.MAX_RESPONSE_BYTES,
    disableAfterSeconds: slice.DISABLE_AFTER_SECONDS,
    rotationOverlapSeconds: slice.ROTATION_OVERLAP_SECONDS,
    maxEndpoints: slice.MAX_ENDPOINTS,
  }),
};
