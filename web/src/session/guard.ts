import type { Claims, StoredTokens, TokenPair, TokenStore } from './tokens.ts';

/** The spec's session timeout: 30 minutes of inactivity (1,800,000 ms). */
export const SESSION_TIMEOUT_MS = 1_800_000;

/** Paths that never redirect to sign-in (the spec's public list). */
const PUBLIC_PATHS = [
  '/login',
  '/notice-user-id',
  '/forget-password',
  '/forget-password/reset',
  '/initial-password-change',
  '/expired-password-change',
  '/arrival-confirmation',
  '/signup',
];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.includes(pathname.replace(/\/+$/, '') || '/') || pathname.startsWith('/onetime/business-flows/');
}

const JOIN_ROUTE = /^\/workspaces\/[^/]+\/join\/?$/;

/** The single sign-on screens (/sso, /{orgCode}/sso-login): signed-out screens, though not on the spec's list. */
export function isSsoPath(pathname: string): boolean {
  return /^\/(?:sso|[^/]+\/sso-login)\/?$/.test(pathname);
}

export function isJoinPath(pathname: string): boolean {
  return JOIN_ROUTE.test(pathname);
}

/** Why a session ended: the one kind of rejection the app handles itself instead of the error boundary. */
export type SessionEndReason = 'timeout' | 'refresh-failed' | 'no-token';

export class SessionEndedError extends Error {
  constructor(readonly reason: SessionEndReason) {
    super(`session ended: ${reason}`);
    this.name = 'SessionEndedError';
  }
}

export function isSessionEndedError(error: unknown): error is SessionEndedError {
  return error instanceof SessionEndedError;
}

/** Where to send the user to sign in again: the original URI, and the timeout flag when it timed out. */
export function loginLocation(options: { redirect?: string; timeout?: boolean; invitationToken?: string }): string {
  const query = new URLSearchParams();
  if (options.invitationToken) query.set('invitationToken', options.invitationToken);
  // Never back to the sign-in page itself (a second ended request would otherwise nest its own redirect).
  if (options.redirect && options.redirect.split(/[?#]/)[0] !== '/login') query.set('redirect', options.redirect);
  if (options.timeout) query.set('timeout', '1');
  const search = query.toString();
  return search ? `/login?${search}` : '/login';
}

export interface SessionGuardOptions {
  store: TokenStore;
  /** Milliseconds since the epoch. */
  now: () => number;
  /** Calls refreshAuth; rejects when the server refuses. */
  refresh: (pair: TokenPair) => Promise<TokenPair>;
  /**
   * Runs a refresh exclusively among the tabs that share the store (web/src/session/refresh-lock.ts); without it a
   * refresh is exclusive within this tab only.
   */
  exclusive?: <T>(refresh: () => Promise<T>) => Promise<T>;
  /** Clears the query cache and navigates to sign-in; the guard has already removed tokens and timestamp. */
  onSessionEnded: (reason: SessionEndReason) => void;
}

/**
 * The session rules of the spec in one place: the activity timestamp, the access token's `exp` (seconds, no
 * skew), refresh before a protected request, and what ending a session clears.
 */
export class SessionGuard {
  private refreshing: Promise<StoredTokens> | null = null;

  constructor(private readonly options: SessionGuardOptions) {}

  /** Stores a fresh pair after sign-in and starts the activity clock. */
  signedIn(pair: TokenPair): void {
    this.options.store.save(pair);
    this.options.store.touch(this.options.now());
  }

  claims(): Claims | null {
    return this.options.store.read()?.accessToken.claims ?? null;
  }

  /** Activity (a request, a click, a key) refreshes the timestamp of a live session; a timed-out one stays ended. */
  touch(): void {
    if (this.hasSession()) this.options.store.touch(this.options.now());
  }

  timedOut(): boolean {
    const last = this.options.store.timestamp();
    return last !== null && this.options.now() - last > SESSION_TIMEOUT_MS;
  }

  /** True when tokens exist and the inactivity limit has not passed (an expired access token can be refreshed). */
  hasSession(): boolean {
    return this.options.store.read() !== null && this.options.store.timestamp() !== null && !this.timedOut();
  }

  /** Removes tokens and timestamp (sign-out, or an ended session). */
  clear(): void {
    this.options.store.clearTokens();
    this.options.store.clearTimestamp();
  }

  private end(reason: SessionEndReason): never {
    this.clear();
    this.options.onSessionEnded(reason);
    throw new SessionEndedError(reason);
  }

  private live(tokens: StoredTokens): boolean {
    return tokens.accessToken.claims.exp > Math.floor(this.options.now() / 1000);
  }

  /**
   * Runs before each protected request: ends a timed-out session, refreshes an expired access token (one refresh
   * at a time, shared by concurrent requests, and across tabs when `exclusive` is given) and returns the token.
   */
  async accessToken(): Promise<string> {
    const tokens = this.options.store.read();
    // Without an activity timestamp the inactivity limit cannot hold: that is no session (as hasSession says).
    if (!tokens || this.options.store.timestamp() === null) this.end('no-token');
    if (this.timedOut()) this.end('timeout');
    if (this.live(tokens)) return tokens.accessToken.accessToken;
    // A failed refresh ends the session once, however many requests were waiting on it; they all reject.
    this.refreshing ??= this.refreshOnce(tokens.accessToken.accessToken).finally(() => {
      this.refreshing = null;
    });
    return (await this.refreshing).accessToken.accessToken;
  }

  private async refreshOnce(expired: string): Promise<StoredTokens> {
    const refresh = async (): Promise<StoredTokens> => {
      // Another tab may have refreshed while this one waited: its tokens are in the shared storage, so use them
      // instead of sending the refresh token it has just rotated.
      const current = this.options.store.read();
      if (!current) return this.end('refresh-failed');
      if (current.accessToken.accessToken !== expired && this.live(current)) return current;
      const pair = await this.options.refresh({
        authorizationToken: current.accessToken.accessToken,
        ...(current.refreshToken ? { refreshToken: current.refreshToken.refreshToken } : {}),
      });
      return this.options.store.save(pair);
    };
    try {
      return await (this.options.exclusive ? this.options.exclusive(refresh) : refresh());
    } catch (error) {
      if (isSessionEndedError(error)) throw error;
      return this.end('refresh-failed');
    }
  }
}
