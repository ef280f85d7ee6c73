/**
 * Claims the workbench reads from an access token: `exp` in seconds since the epoch, `uid` as a string (a guest's
 * `gid`).
 */
export interface Claims {
  exp: number;
  uid: string;
  oid?: string;
  sid?: string;
}

/**
 * The stored token set in the spec's shape. A signed-in member's refresh token is not here: it lives in an HttpOnly
 * cookie page scripts cannot read (README, security); only the guest flows and a pair stored before the cookie keep it.
 */
export interface StoredTokens {
  accessToken: { accessToken: string; claims: Claims };
  refreshToken?: { refreshToken: string };
}

/** What sign-in and refresh answer; no refreshToken when the server delivered it as a cookie. */
export interface TokenPair {
  authorizationToken: string;
  refreshToken?: string;
}

/** Reads the claims of a JWT without verifying it (the server verifies); `uid` is always a string. */
export function decodeClaims(jwt: string): Claims {
  const payload = jwt.split('.')[1];
  if (!payload) throw new Error('token has no payload');
  const base64 = payload
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(payload.length / 4) * 4, '=');
  const json = new TextDecoder().decode(Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)));
  const claims = JSON.parse(json) as Record<string, unknown>;
  // A one-time (guest) user's token names them `gid` (core/auth/guest-sessions.ts): that is their uid here.
  const uid = claims.uid ?? claims.gid;
  if (typeof claims.exp !== 'number' || uid === undefined) throw new Error('token lacks exp or uid');
  return { ...claims, exp: claims.exp, uid: String(uid) } as Claims;
}

/**
 * Tokens and the activity timestamp in one Storage: localStorage for signed-in users, sessionStorage for the
 * one-time (guest) flows, so a guest link never outlives its tab.
 */
export class TokenStore {
  constructor(
    private readonly storage: Storage,
    private readonly prefix: string,
  ) {}

  private get tokensKey() {
    return `${this.prefix}.tokens`;
  }

  private get timestampKey() {
    return `${this.prefix}.sessionTimestamp`;
  }

  read(): StoredTokens | null {
    const raw = this.storage.getItem(this.tokensKey);
    if (!raw) return null;
    try {
      const tokens = JSON.parse(raw) as StoredTokens;
      if (!tokens.accessToken?.accessToken || typeof tokens.accessToken.claims?.exp !== 'number') return null;
      return tokens.refreshToken && !tokens.refreshToken.refreshToken ? null : tokens;
    } catch {
      return null;
    }
  }

  save(pair: TokenPair): StoredTokens {
    const tokens: StoredTokens = {
      accessToken: { accessToken: pair.authorizationToken, claims: decodeClaims(pair.authorizationToken) },
      ...(pair.refreshToken ? { refreshToken: { refreshToken: pair.refreshToken } } : {}),
    };
    this.storage.setItem(this.tokensKey, JSON.stringify(tokens));
    return tokens;
  }

  clearTokens(): void {
    this.storage.removeItem(this.tokensKey);
  }

  /** Milliseconds since the epoch of the last activity, or null. */
  timestamp(): number | null {
    const raw = this.storage.getItem(this.timestampKey);
    const value = raw === null ? NaN : Number(raw);
    return Number.isFinite(value) ? value : null;
  }

  touch(now: number): void {
    this.storage.setItem(this.timestampKey, String(now));
  }

  clearTimestamp(): void {
    this.storage.removeItem(this.timestampKey);
  }
}
