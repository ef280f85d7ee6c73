/*
 * Rate limits on the operations an attacker can repeat cheaply: sign-in, sign-up, password reset and user-ID
 * reminder (mails to an address), reset and confirmation links, signing codes, uploads and verification. A route
 * declares its limits as metadata (`rateLimit` in core/contract/router.ts); each names a policy below and what it
 * counts per (the caller's IP, the signed-in user, a value of the request such as the e-mail address). Counters live
 * in PostgreSQL (rate-limiter-flexible's store, table `rate_limits`), so a limit holds across every API process on
 * the database. Over a limit the request is refused before its handler with 429 TOO_MANY_REQUESTS and Retry-After.
 */
import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { executeOnConnection } from '../db/index.ts';
import type { GuestPrincipal, Principal, RequestContext } from '../http/context.ts';
import { AppError } from '../http/errors.ts';

/** A budget of requests per fixed window. */
export interface RateLimitPolicy {
  points: number;
  windowSeconds: number;
  /** Count only requests that fail: a request its handler answers successfully gives its point back. */
  failuresOnly?: boolean;
}

const MINUTE = 60;
const HOUR = 3600;

/** Every limit, by name. README's security section lists them; KEIYAKU_RATE_LIMIT_SCALE multiplies every budget. */
export const RATE_LIMIT_POLICIES = {
  // Failed sign-ins from one address, whatever IDs it tries (an office behind one NAT only spends its mistakes).
  signInPerIp: { points: 100, windowSeconds: 15 * MINUTE, failuresOnly: true },
  // Attempts on one ID from one address, locked ID or not; the lock itself (core/auth/throttle.ts) is per ID.
  signInPerIpAndLoginId: { points: 10, windowSeconds: MINUTE },
  // Sign-ups from one address: each answers whether a user ID is taken, so this also bounds that enumeration.
  signUpPerIp: { points: 10, windowSeconds: HOUR },
  // Forgot-password and user-ID reminder requests: per address of the caller, and mails to one e-mail address.
  recoveryPerIp: { points: 20, windowSeconds: HOUR },
  recoveryMailPerAddress: { points: 5, windowSeconds: HOUR },
  // Guesses at the token of a password reset link or an e-mail confirmation link.
  resetLinkPerIp: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  confirmationLinkPerIp: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  // Mails and SMS a signed-in user can have sent to themselves.
  confirmationMailPerUser: { points: 5, windowSeconds: HOUR },
  signingCodePerUser: { points: 5, windowSeconds: 15 * MINUTE },
  // Password changes from the account screen (PUT /me/password): each one hashes twice; wrong current passwords
  // also count against the sign-in lock (five in a row lock the user ID).
  passwordChangePerUser: { points: 10, windowSeconds: 15 * MINUTE },
  // Refused signings (wrong codes and PINs lock on their own after 5; this bounds every other refusal too).
  signingFailuresPerUser: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  // Files: documents, seal images and e-certificates uploaded, and PDFs verified, per user.
  uploadsPerUser: { points: 60, windowSeconds: 10 * MINUTE },
  verificationsPerUser: { points: 30, windowSeconds: 10 * MINUTE },
  // One-time (guest) users, core/modules/one-time-users: invitation mails a member sends (invite, re-send,
  // re-invite); look-ups of invitation links, access codes and QR codes that find nothing live; 6-digit code mails
  // and sign-in code guesses from one address (the guest's own lock after 5 wrong codes is per one-time user, and
  // code mails are also capped at 5 an hour per invitation there); QR codes claimed from one address.
  oneTimeInvitationMailPerUser: { points: 100, windowSeconds: HOUR },
  oneTimeLinkLookupPerIp: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  oneTimeCodeMailPerIp: { points: 20, windowSeconds: HOUR },
  oneTimeSignInPerIp: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  oneTimeQrClaimPerIp: { points: 10, windowSeconds: HOUR },
  // Partner invitations by link: mails a user has sent (invitations and re-sends), guesses at a join link's token.
  invitationMailsPerUser: { points: 20, windowSeconds: HOUR },
  invitationLinkPerIp: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  // Bounce reports fed to POST /mail/bounces (plugins/mail): guesses at its shared secret, and reports in all.
  // The public price list, and refused service-operator tokens (`keiyaku orgs ...`, core/modules/plans).
  plansPerIp: { points: 600, windowSeconds: MINUTE },
  operatorTokenPerIp: { points: 10, windowSeconds: 15 * MINUTE, failuresOnly: true },
  // Wrong tokens at GET /metrics from one address.
  metricsTokenPerIp: { points: 10, windowSeconds: 15 * MINUTE, failuresOnly: true },
  mailBounceSecretPerIp: { points: 10, windowSeconds: 15 * MINUTE, failuresOnly: true },
  mailBouncesPerIp: { points: 600, windowSeconds: MINUTE },
  // Single sign-on (plugins/sso): sign-ins started from one address (each fetches the provider's discovery), and
  // callbacks that fail (guessed states, replayed codes).
  ssoStartPerIp: { points: 30, windowSeconds: 15 * MINUTE },
  ssoCallbackPerIp: { points: 30, windowSeconds: 15 * MINUTE, failuresOnly: true },
  // Box (plugins/box): connections an administrator starts (each stores a state for 10 minutes).
  boxConnectPerUser: { points: 20, windowSeconds: 15 * MINUTE },
  // Webhooks (plugins/webhooks): test events and replays an administrator sends, secrets rotated.
  webhookSendsPerUser: { points: 30, windowSeconds: 15 * MINUTE },
  webhookRotationsPerUser: { points: 10, windowSeconds: 15 * MINUTE },
  // AI-OCR (plugins/ai-ocr): readings a user asks for by hand (each renders pages and may run Tesseract).
  ocrReadsPerUser: { points: 30, windowSeconds: 15 * MINUTE },
  // API keys (core/modules/api-keys): creations and rotations an administrator makes (each answers a new secret).
  apiKeySecretsPerUser: { points: 20, windowSeconds: 15 * MINUTE },
  // SMS delivery status reports Twilio posts (plugins/sms): bad signatures, and reports in all, per sending address.
  smsStatusSignaturePerIp: { points: 10, windowSeconds: 15 * MINUTE, failuresOnly: true },
  smsStatusPerIp: { points: 600, windowSeconds: MINUTE },
} as const satisfies Record<string, RateLimitPolicy>;

export type RateLimitName = keyof typeof RATE_LIMIT_POLICIES;

/** What a limit may count a request by. */
export interface RateLimitInput {
  req: RequestContext;
  principal: Principal | null;
  /** The one-time user of a guest operation. */
  guest?: GuestPrincipal | null;
  body: unknown;
}

/** One limit of a route: its policy and the subject it counts per (a missing subject is not counted). */
export interface RouteRateLimit {
  policy: RateLimitName;
  subject(input: RateLimitInput): string | null;
}

function attribute(input: RateLimitInput, name: string): string | null {
  const attributes = (input.body as { data?: { attributes?: Record<string, unknown> } } | null)?.data?.attributes;
  const value = attributes?.[name];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Counts per caller IP. */
export const perIp = (policy: RateLimitName): RouteRateLimit => ({ policy, subject: ({ req }) => req.ip });

/** Counts per signed-in user, or per one-time user on a guest operation. */
export const perUser = (policy: RateLimitName): RouteRateLimit => ({
  policy,
  subject: ({ principal, guest }) => principal?.userId ?? (guest ? `guest:${guest.oneTimeUserId}` : null),
});

/** Counts per caller IP and a body attribute together (a login ID). */
export const perIpAnd = (policy: RateLimitName, name: string): RouteRateLimit => ({
  policy,
  subject: (input) => {
    const value = attribute(input, name);
    return value === null ? null : `${input.req.ip}\n${value}`;
  },
});

/** Counts per e-mail address of a body attribute, in any letter case. */
export const perAddress = (policy: RateLimitName, name = 'email'): RouteRateLimit => ({
  policy,
  subject: (input) => attribute(input, name)?.trim().toLowerCase() ?? null,
});

/** Points handed back when the request succeeds (the `failuresOnly` policies). */
export type Refund = () => Promise<void>;

/** The limiters of every policy on one database, and the sweep of lapsed counters. */
export class RateLimiter {
  private readonly limiters = new Map<RateLimitName, RateLimiterPostgres>();
  private readonly sweep: NodeJS.Timeout;
  /** Told of every refusal, by the limit the request was over (the service's metrics). */
  onRefused: ((limit: RateLimitName) => void) | null = null;

  /** `scale` multiplies every budget (KEIYAKU_RATE_LIMIT_SCALE); no budget drops below one request. */
  constructor(
    private readonly knex: Knex,
    scale = 1,
  ) {
    // rate-limiter-flexible's knex mode hands PGlite a query object it cannot take; this one client serves both.
    const storeClient = {
      query: (q: { text: string; values?: unknown[]; name?: string }) =>
        executeOnConnection(knex, q.text, q.values, q.name),
    };
    for (const [name, policy] of Object.entries(RATE_LIMIT_POLICIES) as [RateLimitName, RateLimitPolicy][]) {
      this.limiters.set(
        name,
        new RateLimiterPostgres({
          storeClient,
          storeType: 'pool',
          tableName: 'rate_limits',
          tableCreated: true, // by migrations/20261125000300_rate_limits.ts
          clearExpiredByTimeout: false, // one sweep below for the shared table, stopped on close
          keyPrefix: name,
          points: Math.max(1, Math.round(policy.points * scale)),
          duration: policy.windowSeconds,
        }),
      );
    }
    this.sweep = setInterval(() => void this.clearLapsed().catch(() => {}), 10 * 60_000);
    this.sweep.unref();
  }

  /**
   * Counts the request against each limit, or throws TOO_MANY_REQUESTS with Retry-After (the longest wait of the
   * limits it is over). Returns what gives the points of `failuresOnly` policies back after a success.
   */
  async consume(limits: readonly RouteRateLimit[], input: RateLimitInput): Promise<Refund> {
    const counted: { limiter: RateLimiterPostgres; key: string }[] = [];
    let rejected = false;
    let waitMs = 0;
    for (const limit of limits) {
      const subject = limit.subject(input);
      if (subject === null) continue;
      const limiter = this.limiters.get(limit.policy)!;
      const key = createHash('sha256').update(subject).digest('hex');
      try {
        await limiter.consume(key);
        const policy: RateLimitPolicy = RATE_LIMIT_POLICIES[limit.policy];
        if (policy.failuresOnly) counted.push({ limiter, key });
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        rejected = true;
        this.onRefused?.(limit.policy);
        waitMs = Math.max(waitMs, rejection.msBeforeNext);
      }
    }
    if (rejected) {
      const seconds = Math.max(1, Math.ceil(waitMs / 1000));
      input.req.log.warn({ retryAfter: seconds }, 'rate limited');
      throw new AppError('TOO_MANY_REQUESTS', { headers: { 'Retry-After': String(seconds) } });
    }
    return async () => {
      for (const { limiter, key } of counted) await limiter.reward(key, 1);
    };
  }

  /** Deletes counters whose window ended over an hour ago. */
  async clearLapsed(): Promise<void> {
    await this.knex('rate_limits')
      .where('expire', '<', Date.now() - 3600_000)
      .delete();
  }

  /** Stops the sweep (the service closes). */
  stop(): void {
    clearInterval(this.sweep);
  }
}
