import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import twilio from 'twilio';

/** One message as the double accepted it. */
export interface TwilioMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  statusCallback: string | null;
  status: string;
}

/** A test account: a well-formed account sid and auth token. */
export function twilioAccount(): { accountSid: string; authToken: string } {
  return { accountSid: `AC${randomBytes(16).toString('hex')}`, authToken: randomBytes(16).toString('hex') };
}

/**
 * A local HTTP double of Twilio's Programmable Messaging API: `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`
 * with HTTP basic auth (account sid : auth token) and a form body (To, From or MessagingServiceSid, Body,
 * StatusCallback), answering 201 with the message resource as Twilio's JSON, or Twilio's error JSON (401 20003 for
 * bad credentials, 400 21211 for a number marked invalid, 400 21602 without a body, 500 when told to fail). It can
 * then post a status report to the message's StatusCallback, signed as Twilio signs it (X-Twilio-Signature).
 */
export class TwilioMessagesApi {
  readonly messages: TwilioMessage[] = [];
  /** Every request, answered or refused: method, path and status. */
  readonly requests: { method: string; path: string; status: number }[] = [];
  /** Numbers Twilio refuses as invalid (21211). */
  readonly invalidNumbers = new Set<string>();
  private failures = 0;
  private server: Server | null = null;
  /** Runs after a message is taken and before the answer leaves (e.g. a status report that outruns the answer). */
  beforeAnswer: ((message: TwilioMessage) => Promise<void>) | null = null;

  private constructor(
    readonly accountSid: string,
    readonly authToken: string,
  ) {}

  static async start(account = twilioAccount()): Promise<TwilioMessagesApi> {
    const peer = new TwilioMessagesApi(account.accountSid, account.authToken);
    peer.server = createServer((req, res) => void peer.handle(req, res));
    await new Promise<void>((resolve) => peer.server!.listen(0, '127.0.0.1', resolve));
    return peer;
  }

  /** The origin to put in KEIYAKU_PLUGIN_SMS_TWILIO_API_URL. */
  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  /** The next `count` message requests answer 500 (Twilio having trouble). */
  failNext(count: number): void {
    this.failures = count;
  }

  /**
   * Posts Twilio's status report for a message to `origin` + its StatusCallback's path (the service's own address
   * when its public URL is another), signed over the StatusCallback URL itself; `authToken` signs it wrongly.
   */
  async reportStatus(
    sid: string,
    status: string,
    options: { origin: string; errorCode?: string; authToken?: string },
  ): Promise<Response> {
    const message = this.messages.find((m) => m.sid === sid);
    if (!message?.statusCallback) throw new Error(`no message ${sid} with a status callback`);
    message.status = status;
    const params: Record<string, string> = {
      AccountSid: this.accountSid,
      ApiVersion: '2010-04-01',
      From: message.from ?? '',
      MessageSid: sid,
      MessageStatus: status,
      SmsSid: sid,
      SmsStatus: status,
      To: message.to,
      ...(options.errorCode ? { ErrorCode: options.errorCode } : {}),
    };
    const signature = twilio.getExpectedTwilioSignature(
      options.authToken ?? this.authToken,
      message.statusCallback,
      params,
    );
    const target = new URL(message.statusCallback);
    return fetch(`${options.origin}${target.pathname}${target.search}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
      body: new URLSearchParams(params).toString(),
    });
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private answer(res: ServerResponse, req: IncomingMessage, status: number, body: unknown): void {
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', status });
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  private error(res: ServerResponse, req: IncomingMessage, status: number, code: number, message: string): void {
    this.answer(res, req, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const path = `/2010-04-01/Accounts/${this.accountSid}/Messages.json`;
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      this.error(res, req, 404, 20404, 'The requested resource was not found');
      return;
    }
    const expected = `Basic ${Buffer.from(`${this.accountSid}:${this.authToken}`).toString('base64')}`;
    if (req.headers.authorization !== expected || req.url !== path) {
      this.error(res, req, 401, 20003, 'Authenticate');
      return;
    }
    if (!String(req.headers['content-type']).startsWith('application/x-www-form-urlencoded')) {
      this.error(res, req, 400, 20001, 'Unsupported content type');
      return;
    }
    if (this.failures > 0) {
      this.failures--;
      this.answer(res, req, 500, { code: 20500, message: 'Internal Server Error', status: 500 });
      return;
    }
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const to = form.get('To') ?? '';
    if (!/^\+[1-9]\d{6,14}$/.test(to) || this.invalidNumbers.has(to)) {
      this.error(res, req, 400, 21211, `The 'To' number ${to} is not a valid phone number.`);
      return;
    }
    const from = form.get('From');
    const messagingServiceSid = form.get('MessagingServiceSid');
    if (!from && !messagingServiceSid) {
      this.error(res, req, 400, 21603, "The 'From' phone number is required.");
      return;
    }
    const body = form.get('Body') ?? '';
    if (!body) {
      this.error(res, req, 400, 21602, 'Message body is required.');
      return;
    }
    const sid = `SM${randomBytes(16).toString('hex')}`;
    const message: TwilioMessage = {
      sid,
      to,
      from,
      messagingServiceSid,
      body,
      statusCallback: form.get('StatusCallback'),
      status: messagingServiceSid ? 'accepted' : 'queued',
    };
    this.messages.push(message);
    const createdStatus = message.status; // the answer tells the status at creation, whatever was reported since
    await this.beforeAnswer?.(message);
    const now = new Date().toUTCString().replace('GMT', '+0000');
    this.answer(res, req, 201, {
      account_sid: this.accountSid,
      api_version: '2010-04-01',
      body,
      date_created: now,
      date_sent: null,
      date_updated: now,
      direction: 'outbound-api',
      error_code: null,
      error_message: null,
      from,
      messaging_service_sid: messagingServiceSid,
      num_media: '0',
      num_segments: '1',
      price: null,
      price_unit: 'USD',
      sid,
      status: createdStatus,
      subresource_uris: { media: `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}/Media.json` },
      to,
      uri: `/2010-04-01/Accounts/${this.accountSid}/Messages/${sid}.json`,
    });
  }
}
