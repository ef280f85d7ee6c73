import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/** The token pair the API hands out on sign-in and rotates on refresh. */
export interface TokenPair {
  authorizationToken: string;
  refreshToken: string;
}

/** An API key stored by `keiyaku login --api-key`: sent as is, never refreshed. */
export interface StoredApiKey {
  apiKey: string;
}

type Store = Record<string, TokenPair | StoredApiKey>;

/** The folder holding credentials.json: KEIYAKU_CONFIG_DIR, or ~/.config/keiyaku. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.KEIYAKU_CONFIG_DIR || path.join(env.XDG_CONFIG_HOME || path.join(homedir(), '.config'), 'keiyaku');
}

/**
 * Token pairs per server URL in `<configDir>/credentials.json`, readable by the owner only (0600). Writes go to a
 * temporary file renamed over the old one, so an interrupted write never leaves half a file.
 */
export class CredentialStore {
  readonly file: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.file = path.join(configDir(env), 'credentials.json');
  }

  private read(): Store {
    if (!existsSync(this.file)) return {};
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as unknown;
      return parsed && typeof parsed === 'object' ? (parsed as Store) : {};
    } catch {
      return {};
    }
  }

  private write(store: Store): void {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(store, null, 2)}\n`, { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
  }

  get(url: string): TokenPair | null {
    const entry = this.read()[url] as Partial<TokenPair> | undefined;
    return entry?.authorizationToken && entry.refreshToken ? (entry as TokenPair) : null;
  }

  save(url: string, pair: TokenPair): void {
    this.write({ ...this.read(), [url]: pair });
  }

  /** The API key stored for a server, or null (a server has either a token pair or a key). */
  getApiKey(url: string): string | null {
    const entry = this.read()[url] as Partial<StoredApiKey> | undefined;
    return typeof entry?.apiKey === 'string' && entry.apiKey ? entry.apiKey : null;
  }

  /** Stores an API key for a server, replacing its token pair if it had one. */
  saveApiKey(url: string, apiKey: string): void {
    this.write({ ...this.read(), [url]: { apiKey } });
  }

  /** Forgets one server's tokens; returns whether there were any. */
  remove(url: string): boolean {
    const store = this.read();
    if (!(url in store)) return false;
    delete store[url];
    this.write(store);
    return true;
  }
}

/** The access token's `exp` claim (seconds), or 0 when it cannot be read. */
export function tokenExpiry(accessToken: string): number {
  try {
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    return typeof payload.exp === 'number' ? payload.exp : 0;
  } catch {
    return 0;
  }
}

/** Expired when `exp` is not after now, compared in whole seconds without skew (the spec's rule). */
export function tokenExpired(accessToken: string, nowMs = Date.now()): boolean {
  return tokenExpiry(accessToken) <= Math.floor(nowMs / 1000);
}
