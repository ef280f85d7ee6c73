/*
 * The SMS gateways: the embedded outbox (stores the message, sends nothing) and Twilio, through Twilio's official
 * SDK. Which one is configured by KEIYAKU_PLUGIN_SMS_GATEWAY; Twilio's account by KEIYAKU_PLUGIN_SMS_TWILIO_*.
 */
import twilio from 'twilio';

export type GatewayName = 'outbox' | 'twilio';

export interface SmsConfig {
  gateway: GatewayName;
  twilioAccountSid?: string;
  twilioAuthToken?: string;
  /** The sender: an E.164 number or an alphanumeric sender ID; or else a messaging service. */
  twilioFrom?: string;
  twilioMessagingServiceSid?: string;
  /** Another origin for Twilio's REST API (a local double in tests); production leaves it unset. */
  twilioApiUrl?: string;
  /** Timeout of each request to Twilio. */
  twilioTimeoutSeconds: number;
  /** Retries of a message the carrier could not take (5xx, 429, network), and the first delay (doubled each time). */
  retryLimit: number;
  retryDelaySeconds: number;
}

const optional = (value: string | undefined) => (value && value.trim() !== '' ? value.trim() : undefined);

export const smsConfig = {
  schema: {
    type: 'object',
    required: ['gateway'],
    properties: {
      gateway: { enum: ['outbox', 'twilio'] },
      twilioAccountSid: { type: 'string', pattern: '^AC[0-9a-fA-F]{32}$' },
      twilioAuthToken: { type: 'string', minLength: 1 },
      twilioFrom: { type: 'string', pattern: '^(\\+[1-9][0-9]{6,14}|[A-Za-z0-9 ]{1,11})$' },
      twilioMessagingServiceSid: { type: 'string', pattern: '^MG[0-9a-fA-F]{32}$' },
      twilioApiUrl: { type: 'string', pattern: '^https?://[^/]+$' },
      twilioTimeoutSeconds: { type: 'integer', minimum: 1, maximum: 60, default: 10 },
      retryLimit: { type: 'integer', minimum: 0, maximum: 20, default: 5 },
      retryDelaySeconds: { type: 'integer', minimum: 1, maximum: 3600, default: 5 },
    },
    if: { properties: { gateway: { const: 'twilio' } } },
    then: {
      required: ['twilioAccountSid', 'twilioAuthToken'],
      anyOf: [{ required: ['twilioFrom'] }, { required: ['twilioMessagingServiceSid'] }],
    },
  },
  read: (_config: unknown, slice: Record<string, string>) => ({
    gateway: optional(slice.GATEWAY) ?? 'outbox',
    twilioAccountSid: optional(slice.TWILIO_ACCOUNT_SID),
    twilioAuthToken: optional(slice.TWILIO_AUTH_TOKEN),
    twilioFrom: optional(slice.TWILIO_FROM),
    twilioMessagingServiceSid: optional(slice.TWILIO_MESSAGING_SERVICE_SID),
    twilioApiUrl: optional(slice.TWILIO_API_URL)?.replace(/\/$/, ''),
    twilioTimeoutSeconds: optional(slice.TWILIO_TIMEOUT_SECONDS),
    retryLimit: optional(slice.RETRY_LIMIT),
    retryDelaySeconds: optional(slice.RETRY_DELAY_SECONDS),
  }),
};

/**
 * A Japanese mobile number in E.164 (090-1234-5678 → +819012345678): 060/070/080/090 and 8 more digits, with or
 * without hyphens or spaces, or already +81 with the leading 0 dropped. Null for anything else.
 */
export function japaneseMobileE164(raw: string): string | null {
  const compact = raw.replace(/[\s\-()]/g, '');
  const national = compact.startsWith('+81') ? `0${compact.slice(3)}` : compact;
  return /^0[6789]0\d{8}$/.test(national) ? `+81${national.slice(1)}` : null;
}

/** Delivery statuses as recorded; 'sending' means the carrier was called and has not answered yet. */
export type DeliveryStatus = 'sending' | 'queued' | 'sent' | 'delivered' | 'undelivered' | 'failed';

/** Twilio's message status as recorded, or null for statuses that say nothing about delivery (receiving...). */
export function deliveryStatusOf(twilioStatus: string): DeliveryStatus | null {
  switch (twilioStatus) {
    case 'accepted':
    case 'scheduled':
    case 'queued':
    case 'sending':
      return 'queued';
    case 'sent':
      return 'sent';
    case 'delivered':
    case 'read':
      return 'delivered';
    case 'undelivered':
      return 'undelivered';
    case 'failed':
    case 'canceled':
      return 'failed';
    default:
      return null;
  }
}

/** Statuses a report may move a delivery from to `status` (a late report never moves it back). */
export function earlierStatuses(status: DeliveryStatus): DeliveryStatus[] {
  const order: DeliveryStatus[][] = [['sending'], ['queued'], ['sent'], ['delivered', 'undelivered', 'failed']];
  const rank = order.findIndex((group) => group.includes(status));
  return order.slice(0, rank).flat();
}

/** Sends Twilio's REST calls to another origin (KEIYAKU_PLUGIN_SMS_TWILIO_API_URL: a local double in tests). */
class OriginRewritingClient extends twilio.RequestClient {
  constructor(
    private readonly origin: string,
    options: ConstructorParameters<typeof twilio.RequestClient>[0],
  ) {
    super(options);
  }

  override request<TData>(opts: Parameters<twilio.RequestClient['request']>[0]) {
    const uri = opts.uri.replace(/^https:\/\/api\.twilio\.com(?=\/|$)/, this.origin);
    return super.request<TData>({ ...opts, uri } as never);
  }
}

/** What Twilio answered to a message it accepted. */
export interface CarrierReceipt {
  sid: string;
  status: DeliveryStatus;
  errorCode: string | null;
}

/** Twilio refused the message for good (a 4xx other than 429: invalid number 21211, unreachable 21614...). */
export class PermanentCarrierError extends Error {
  constructor(
    readonly errorCode: string,
    message: string,
  ) {
    super(message);
  }
}

export class TwilioGateway {
  private readonly client: twilio.Twilio;

  constructor(private readonly config: SmsConfig & { twilioAccountSid: string; twilioAuthToken: string }) {
    const timeout = config.twilioTimeoutSeconds * 1000;
    const httpClient = config.twilioApiUrl
      ? new OriginRewritingClient(config.twilioApiUrl, { timeout })
      : new twilio.RequestClient({ timeout });
    this.client = twilio(config.twilioAccountSid, config.twilioAuthToken, { httpClient, autoRetry: false });
  }

  /**
   * Sends one SMS: Twilio's receipt, PermanentCarrierError when Twilio refuses it for good; any other error (5xx,
   * 429, network, timeout) may be tried again.
   */
  async send(input: { to: string; body: string; statusCallback: string }): Promise<CarrierReceipt> {
    const sender = this.config.twilioMessagingServiceSid
      ? { messagingServiceSid: this.config.twilioMessagingServiceSid }
      : { from: this.config.twilioFrom! };
    try {
      const message = await this.client.messages.create({ ...input, ...sender });
      return {
        sid: message.sid,
        status: deliveryStatusOf(message.status) ?? 'queued',
        errorCode: message.errorCode ? String(message.errorCode) : null,
      };
    } catch (error) {
      if (error instanceof twilio.RestException && error.status >= 400 && error.status < 500 && error.status !== 429) {
        throw new PermanentCarrierError(String(error.code ?? error.status), error.message);
      }
      throw error;
    }
  }

  /** The error code to record for a failure that may be tried again (Twilio's code, or the network error's). */
  static transientErrorCode(error: unknown): string {
    if (error instanceof twilio.RestException) return String(error.code ?? error.status);
    const code = (error as { code?: unknown } | null)?.code;
    return typeof code === 'string' && code !== '' ? code : 'CARRIER_UNAVAILABLE';
  }

  /** Whether a status report carries Twilio's signature of the callback address and its fields. */
  validSignature(signature: string | undefined, url: string, fields: Record<string, string>): boolean {
    return Boolean(signature) && twilio.validateRequest(this.config.twilioAuthToken, signature!, url, fields);
  }
}
