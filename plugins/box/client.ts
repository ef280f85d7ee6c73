/*
 * The Box SDK (box-node-sdk) bound to one organization's connection: OAuth 2.0 whose tokens live sealed in
 * box_connections (a TokenStorage over the database), refreshed by the SDK when Box answers 401 or when the stored
 * expiry has passed, one refresh at a time per connection (a lease on the row), and Box's errors told apart.
 * The SDK is loaded on the first Box call, not at start (see loadBoxSdk).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type * as BoxModule from 'box-node-sdk';
import type { BoxClient, BoxOAuth } from 'box-node-sdk';
import type * as BoxErrorsModule from 'box-node-sdk/box';
import type { BoxApiError, BoxSdkError, TokenStorage } from 'box-node-sdk/box';
import type * as BoxNetworkingModule from 'box-node-sdk/networking';
import type { FetchOptions, FetchResponse, NetworkSession, RetryStrategy } from 'box-node-sdk/networking';
import type { AccessToken } from 'box-node-sdk/schemas';
import { AppError, type PluginContext } from '../../core/plugins/index.ts';

export interface BoxConfig {
  /** The Box application's OAuth client (KEIYAKU_PLUGIN_BOX_CLIENT_ID / _CLIENT_SECRET); null: nobody can connect. */
  clientId: string | null;
  clientSecret: string | null;
  /** Box's API, upload and OAuth base URLs (the SDK's defaults; tests point them at a local double). */
  apiUrl: string;
  uploadUrl: string;
  oauth2Url: string;
  /** Upload job retries after a 5xx or an unreachable Box, with exponential back-off from the delay. */
  retryLimit: number;
  retryDelaySeconds: number;
  requestTimeoutSeconds: number;
  /** How long a started connection may take at Box. */
  stateTtlSeconds: number;
}

export type Ctx = PluginContext<BoxConfig>;

/** A row of box_connections. */
export interface ConnectionRow {
  id: string;
  organization_id: string;
  tokens_sealed: Buffer | null;
  access_expires_at: Date | null;
  account_id: string | null;
  account_login: string | null;
  account_name: string | null;
  root_folder_id: string;
  root_folder_name: string;
  status: 'connected' | 'auth_failed';
  last_error_code: string | null;
  last_error_at: Date | null;
  last_upload_at: Date | null;
  auth_failure_notified_at: Date | null;
  connected_at: Date;
  updated_at: Date;
}

/** Refreshing an access token is considered early by this much, so a request does not start with a dying one. */
const EXPIRY_MARGIN_MS = 30_000;
/**
 * The longest one refresh may hold the connection's lease, and the longest another waits for it: longer than the
 * token request may take, so a slow Box never lets a second worker spend the same refresh token.
 */
const leaseMs = (ctx: Ctx) => ctx.config.requestTimeoutSeconds * 1000 + 10_000;

interface StoredTokens {
  accessToken: string;
  refreshToken?: string;
  expiresIn?: number;
  tokenType?: string;
}

/** Tokens of one connection, sealed in its row (context: the row id). */
export class SealedTokenStorage implements TokenStorage {
  /** The access token this storage last handed out: a refresh compares it with the stored one. */
  lastAccessToken: string | undefined;
  expiresAt: Date | null = null;

  constructor(
    private readonly ctx: Ctx,
    readonly connectionId: string,
  ) {}

  async store(token: AccessToken): Promise<undefined> {
    const now = this.ctx.clock.now();
    const stored: StoredTokens = {
      accessToken: token.accessToken ?? '',
      refreshToken: token.refreshToken,
      expiresIn: token.expiresIn,
      tokenType: token.tokenType,
    };
    const expiresAt = new Date(now.getTime() + (token.expiresIn ?? 3600) * 1000);
    await this.ctx
      .db('box_connections')
      .where({ id: this.connectionId })
      .update({ tokens_sealed: sealTokens(this.ctx, this.connectionId, stored), access_expires_at: expiresAt });
    this.lastAccessToken = stored.accessToken;
    this.expiresAt = expiresAt;
    return undefined;
  }

  async get(): Promise<AccessToken | undefined> {
    const row = await this.ctx
      .db('box_connections')
      .where({ id: this.connectionId })
      .first<Pick<ConnectionRow, 'tokens_sealed' | 'access_expires_at'> | undefined>(
        'tokens_sealed',
        'access_expires_at',
      );
    if (!row?.tokens_sealed) return undefined;
    const tokens = JSON.parse(
      Buffer.from(this.ctx.secrets.open(row.tokens_sealed, this.connectionId)).toString('utf8'),
    ) as StoredTokens;
    this.lastAccessToken = tokens.accessToken;
    this.expiresAt = row.access_expires_at;
    return {
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      expiresIn: tokens.expiresIn,
      tokenType: tokens.tokenType as AccessToken['tokenType'],
    };
  }

  async clear(): Promise<undefined> {
    await this.ctx
      .db('box_connections')
      .where({ id: this.connectionId })
      .update({ tokens_sealed: null, access_expires_at: null });
    return undefined;
  }
}

export function sealTokens(ctx: Ctx, connectionId: string, tokens: StoredTokens): Buffer {
  return Buffer.from(ctx.secrets.seal(Buffer.from(JSON.stringify(tokens), 'utf8'), connectionId));
}

/** The parts of box-node-sdk this plugin uses, and the OAuth class built on it. */
interface BoxSdk {
  box: typeof BoxModule;
  errors: typeof BoxErrorsModule;
  networking: typeof BoxNetworkingModule;
  ConnectionOAuth: ReturnType<typeof connectionOAuthClass>;
}

/** The SDK once loaded: until then no error can be one of its own. */
let sdk: BoxSdk | null = null;
let sdkLoading: Promise<BoxSdk> | null = null;

/**
 * box-node-sdk, loaded on the first Box call: some 600 modules and ~25 MB of heap that every instance carried from
 * its start, also where no organization connects Box (npm run bench:start).
 */
export function loadBoxSdk(): Promise<BoxSdk> {
  sdkLoading ??= Promise.all([
    import('box-node-sdk'),
    import('box-node-sdk/box'),
    import('box-node-sdk/networking'),
  ]).then(([box, errors, networking]) => {
    sdk = { box, errors, networking, ConnectionOAuth: connectionOAuthClass(box, errors) };
    return sdk;
  });
  return sdkLoading;
}

/**
 * The SDK's OAuth with its tokens in the database: an expired access token is refreshed before use, and a refresh
 * (the SDK's own after a 401 as well) holds the connection's lease so that one worker spends the refresh token
 * while another waits and then uses the token the first one stored.
 */
function connectionOAuthClass(box: BoxSdk['box'], errors: BoxSdk['errors']) {
  return class ConnectionOAuth extends box.BoxOAuth {
    constructor(
      private readonly ctx: Ctx,
      private readonly storage: SealedTokenStorage,
    ) {
      super({
        config: new box.OAuthConfig({
          clientId: ctx.config.clientId ?? '',
          clientSecret: ctx.config.clientSecret ?? '',
          tokenStorage: storage,
        }),
      });
    }

    override async retrieveToken(networkSession?: NetworkSession): Promise<AccessToken> {
      const token = await this.storage.get();
      if (!token) throw new errors.BoxSdkError({ message: 'the Box connection has no tokens' });
      const expiresAt = this.storage.expiresAt?.getTime() ?? Infinity;
      if (this.ctx.clock.now().getTime() + EXPIRY_MARGIN_MS >= expiresAt) return this.refreshToken(networkSession);
      return token;
    }

    override async refreshToken(networkSession?: NetworkSession): Promise<AccessToken> {
      const seen = this.storage.lastAccessToken;
      const lease = leaseMs(this.ctx);
      const giveUpAt = Date.now() + lease;
      const db = this.ctx.db;
      while (Date.now() < giveUpAt) {
        const now = new Date();
        const until = new Date(now.getTime() + lease);
        const claimed = await db('box_connections')
          .where({ id: this.storage.connectionId })
          .andWhere((q) => q.whereNull('refreshing_until').orWhere('refreshing_until', '<', now))
          .update({ refreshing_until: until });
        if (claimed === 1) {
          let current: AccessToken | undefined;
          try {
            current = await this.storage.get();
            const fresh = (this.storage.expiresAt?.getTime() ?? 0) > this.ctx.clock.now().getTime() + EXPIRY_MARGIN_MS;
            // Another worker refreshed while this one waited: its token is the one to use.
            if (current && current.accessToken !== seen && fresh) return current;
            return await super.refreshToken(networkSession);
          } catch (error) {
            // Refused, yet the stored tokens changed meanwhile (a refresh elsewhere outlived its lease): use those.
            const stored = await this.storage.get();
            if (stored && current && stored.accessToken !== current.accessToken) return stored;
            throw error;
          } finally {
            // Only this worker's own lease: one that ran out may have been taken by another worker since.
            await db('box_connections')
              .where({ id: this.storage.connectionId, refreshing_until: until })
              .update({ refreshing_until: null });
          }
        }
        await sleep(100);
      }
      throw new errors.BoxSdkError({ message: 'timed out waiting for another refresh of the Box token' });
    }
  };
}

/**
 * The SDK's retries, less them: a 401 refreshes the token and tries once more (the SDK's refresh path); anything
 * else fails at once, and the upload job's own policy (back-off, retry limit, visible state) decides about 5xx.
 */
class RefreshOnlyRetryStrategy implements RetryStrategy {
  async shouldRetry(fetchOptions: FetchOptions, fetchResponse: FetchResponse, attemptNumber: number) {
    if (fetchResponse.status === 401 && fetchOptions.auth && attemptNumber < 2) {
      await fetchOptions.auth.refreshToken(fetchOptions.networkSession);
      return true;
    }
    return false;
  }

  retryAfter(): number {
    return 0;
  }
}

/** A network session pointed at the configured Box (base URLs, timeout, our retry strategy). */
export async function networkSession(ctx: Ctx): Promise<NetworkSession> {
  const { networking } = await loadBoxSdk();
  return new networking.NetworkSession({
    baseUrls: new networking.BaseUrls({
      baseUrl: ctx.config.apiUrl,
      uploadUrl: ctx.config.uploadUrl,
      oauth2Url: ctx.config.oauth2Url,
    }),
    retryStrategy: new RefreshOnlyRetryStrategy(),
    timeoutConfig: { timeoutMs: ctx.config.requestTimeoutSeconds * 1000 },
  });
}

/** The SDK client acting as the connection's Box user. */
export async function clientFor(ctx: Ctx, connectionId: string): Promise<{ client: BoxClient; auth: BoxOAuth }> {
  const { box, ConnectionOAuth } = await loadBoxSdk();
  const auth = new ConnectionOAuth(ctx, new SealedTokenStorage(ctx, connectionId));
  return { client: new box.BoxClient({ auth, networkSession: await networkSession(ctx) }), auth };
}

/** An OAuth client without stored tokens yet, for the code exchange; the tokens come back to the caller. */
export async function oauthForExchange(ctx: Ctx, storage: TokenStorage): Promise<BoxOAuth> {
  const { box } = await loadBoxSdk();
  return new box.BoxOAuth({
    config: new box.OAuthConfig({
      clientId: ctx.config.clientId ?? '',
      clientSecret: ctx.config.clientSecret ?? '',
      tokenStorage: storage,
    }),
  });
}

/** The error as Box's answer, when it is one (nothing the SDK threw exists before it is loaded). */
function apiError(error: unknown): BoxApiError | null {
  return sdk && error instanceof sdk.errors.BoxApiError ? error : null;
}

/** The error as one of the SDK's own (a request that got no answer, a missing token). */
function sdkError(error: unknown): BoxSdkError | null {
  return sdk && error instanceof sdk.errors.BoxSdkError ? error : null;
}

/** The status Box answered, or 0 when it did not answer (network, timeout). */
export function boxStatus(error: unknown): number {
  return apiError(error)?.responseInfo.statusCode ?? 0;
}

/** Box's `code` of an error answer (`item_name_in_use`, `invalid_grant` ...). */
export function boxCode(error: unknown): string | undefined {
  const answer = apiError(error);
  if (!answer) return undefined;
  // The SDK keeps `code` as the JSON text it read (with its quotes); the token endpoint answers `error` instead.
  const body = answer.responseInfo.body as { code?: unknown; error?: unknown } | undefined;
  const code = body?.code ?? body?.error;
  return typeof code === 'string' ? code : undefined;
}

/** The token endpoint's answers that mean our grant or client is refused for good (RFC 6749 §5.2). */
const AUTH_REFUSALS = new Set(['invalid_grant', 'invalid_client', 'unauthorized_client']);

/**
 * Box refused our authorization for good: the token endpoint refused the refresh token or code (400/401
 * invalid_grant, invalid_client), or an API call stayed 401 after a refresh, or there were no tokens.
 */
export function isAuthFailure(error: unknown): boolean {
  const answer = apiError(error);
  if (answer) {
    const status = answer.responseInfo.statusCode;
    const tokenEndpoint = /\/oauth2\/token/.test(answer.requestInfo.url);
    if (!tokenEndpoint) return status === 401;
    // The token endpoint's 429 or other answers are not a verdict on our authorization.
    return (status === 400 || status === 401) && AUTH_REFUSALS.has(boxCode(error) ?? '');
  }
  return /has no tokens/.test(sdkError(error)?.message ?? '');
}

/** A failure worth trying again later: Box answered 5xx or 429, or did not answer at all. */
export function isTransient(error: unknown): boolean {
  const answer = apiError(error);
  if (answer) {
    const status = answer.responseInfo.statusCode;
    return status >= 500 || status === 429;
  }
  return !(error instanceof AppError);
}

/** The conflicting item's id of a 409 item_name_in_use (context_info.conflicts, an object or a list). */
export function conflictId(error: unknown): string | undefined {
  const answer = apiError(error);
  if (answer?.responseInfo.statusCode !== 409) return undefined;
  const conflicts = (answer.responseInfo.contextInfo as { conflicts?: unknown } | undefined)?.conflicts;
  const first = Array.isArray(conflicts) ? conflicts[0] : conflicts;
  const id = (first as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

/** What may be logged of a Box failure: never its request (the Authorization header, a refresh token). */
export function describeBoxError(error: unknown): Record<string, unknown> {
  const answer = apiError(error);
  if (answer) {
    return {
      name: answer.name,
      status: answer.responseInfo.statusCode,
      code: boxCode(answer),
      requestId: answer.responseInfo.requestId,
      url: answer.requestInfo.url.split('?')[0],
    };
  }
  const own = sdkError(error);
  if (own) return { name: own.name, message: own.message, cause: own.error?.message };
  return { name: (error as Error)?.name, message: (error as Error)?.message };
}
