/**
 * The CLI's API client: every `keiyaku` command that talks to the server goes through this file.
 *
 * Exports:
 * - `addConnectionOptions(command)`: adds `--url <url>` (else KEIYAKU_URL, else http://localhost:3000).
 * - `withApi(options, fn)`: opens an {@link ApiSession} (an API key from KEIYAKU_API_KEY or stored by
 *   `keiyaku login --api-key`, sent as is and never refreshed; else stored tokens, refreshed when expired; or a
 *   per-run sign-in from KEIYAKU_LOGIN_ID + KEIYAKU_PASSWORD, signed out afterwards) and runs `fn(session)`. Without credentials it
 *   throws CliError exit 3. `openSession(options)` is the same without the automatic close.
 * - `ApiSession`: `{ url, locale, client }`; `client` is an openapi-fetch client typed by core/contract/api.gen.ts
 *   `paths` (base `<url>/core/v1`, sends Authorization and Accept-Language on every call).
 * - `unwrap(result)`: returns `result.data` or throws the API error as a CliError ("CODE: message" in the user's
 *   language, one line per field error; exit 1, or 3 for a 401).
 * - `download(session, path, query, target, output)` (cli/download.ts): GETs a file (text/csv ...) and streams
 *   it to `target`: a file path, '-' for stdout, or undefined for the server's file name in the current folder.
 * - `upload(...)` is not here: send a body with `session.client.POST(path, { body, bodySerializer, headers })`.
 * - `signInWithPassword(url, loginId, password, env)`, `serverUrl(option, env)`, `cliLocale(env)`, `CredentialStore`
 *   (cli/credentials.ts), `CliError`, `EXIT`, `usageError` (cli/errors.ts), `ask` (cli/prompt.ts).
 * Errors thrown as CliError are printed by cli/main.ts as one line with their exit code; never call process.exit.
 */
import type { Command } from 'commander';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from '../core/contract/api.gen.ts';
import { CredentialStore, type TokenPair, tokenExpired } from './credentials.ts';
import { apiError, CliError, type ErrorEntry, EXIT, unwrap, usageError } from './errors.ts';

export { apiError, CliError, EXIT, unwrap, usageError } from './errors.ts';
export { type DownloadResult, dispositionFileName, download } from './download.ts';
export { CredentialStore, type TokenPair } from './credentials.ts';
export { ask } from './prompt.ts';

export type ApiClient = Client<paths>;
export type Locale = 'ja' | 'en';

export const DEFAULT_URL = 'http://localhost:3000';
const API_BASE = '/core/v1';

/** Options every API command accepts (from `addConnectionOptions`) plus the environment to read. */
export interface ConnectionOptions {
  url?: string;
  env?: NodeJS.ProcessEnv;
}

/** Adds `--url` to a command that talks to the API. */
export function addConnectionOptions(command: Command): Command {
  return command.option('--url <url>', `server URL (default: KEIYAKU_URL or ${DEFAULT_URL})`);
}

/** The server's URL without a trailing slash; credentials are stored under exactly this key. */
export function serverUrl(option?: string, env: NodeJS.ProcessEnv = process.env): string {
  const raw = option || env.KEIYAKU_URL || DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usageError(`not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usageError(`not an http(s) URL: ${raw}`);
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/** The language of API messages: KEIYAKU_LANG, else LANG (en_US.UTF-8 -> en); Japanese by default. */
export function cliLocale(env: NodeJS.ProcessEnv = process.env): Locale {
  const tag = (env.KEIYAKU_LANG || env.LANG || '').toLowerCase();
  return tag.startsWith('en') ? 'en' : 'ja';
}

const unreachable: Middleware = {
  onError({ error, request }) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    if (error instanceof CliError) return error;
    return new CliError(`cannot reach ${new URL(request.url).origin}: ${cause}`, EXIT.apiError);
  },
};

/**
 * A typed client for `<url>/core/v1`; `token` is asked before each call (null: send none). With `renew`, a call the
 * server refuses as TOKEN_EXPIRED (the clocks disagree) is sent once more with the renewed token.
 */
export function createApiClient(
  url: string,
  locale: Locale,
  token: () => Promise<string | null>,
  renew?: () => Promise<string>,
): ApiClient {
  const client = createClient<paths>({ baseUrl: url + API_BASE });
  const copies = new Map<string, Request>();
  client.use(unreachable, {
    async onRequest({ request, id }) {
      request.headers.set('Accept-Language', locale);
      const bearer = await token();
      if (bearer) request.headers.set('Authorization', `Bearer ${bearer}`);
      if (renew && bearer) copies.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id }) {
      const copy = copies.get(id);
      copies.delete(id);
      if (!copy || response.status !== 401) return response;
      const body = (await response
        .clone()
        .json()
        .catch(() => null)) as { errors?: ErrorEntry[] } | null;
      if (body?.errors?.[0]?.code !== 'TOKEN_EXPIRED') return response;
      copy.headers.set('Authorization', `Bearer ${await renew!()}`);
      return fetch(copy);
    },
  });
  return client;
}

/** The CLI never asks for cookie delivery, so the refresh token comes in the body (refreshTokenDelivery: body). */
function bodyPair(attributes: { authorizationToken: string; refreshToken?: string }): TokenPair {
  if (!attributes.refreshToken) throw new CliError('the server answered without a refresh token');
  return { authorizationToken: attributes.authorizationToken, refreshToken: attributes.refreshToken };
}

/** Signs in with a user ID and password; returns the token pair (a CliError on failure). */
export async function signInWithPassword(
  url: string,
  loginId: string,
  password: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<TokenPair> {
  const client = createApiClient(url, cliLocale(env), async () => null);
  const result = await client.POST('/auth', { body: { data: { type: 'Auth', attributes: { loginId, password } } } });
  return bodyPair(unwrap(result).data.attributes);
}

/** A signed-in connection to one server. */
export interface ApiSession {
  url: string;
  locale: Locale;
  client: ApiClient;
  /** Signs out when this run signed in from the environment; stored sessions stay. */
  close(): Promise<void>;
}

/**
 * Opens a session: stored tokens for the URL (refreshed and re-saved when the access token expired), else a sign-in
 * from KEIYAKU_LOGIN_ID + KEIYAKU_PASSWORD for this run only, else CliError exit 3.
 */
export async function openSession(options: ConnectionOptions = {}): Promise<ApiSession> {
  const env = options.env ?? process.env;
  const url = serverUrl(options.url, env);
  const locale = cliLocale(env);
  const store = new CredentialStore(env);
  // An API key is the whole credential: no refresh, nothing to sign out of.
  const apiKey = env.KEIYAKU_API_KEY || store.getApiKey(url);
  if (apiKey) {
    const client = createApiClient(url, locale, async () => apiKey);
    return { url, locale, client, close: async () => undefined };
  }
  const stored = store.get(url);
  const fromEnv =
    env.KEIYAKU_LOGIN_ID && env.KEIYAKU_PASSWORD ? { id: env.KEIYAKU_LOGIN_ID, pw: env.KEIYAKU_PASSWORD } : null;
  if (!stored && !fromEnv) {
    throw new CliError(
      `not signed in to ${url}: run \`keiyaku login\` or set KEIYAKU_API_KEY, or KEIYAKU_LOGIN_ID and KEIYAKU_PASSWORD`,
      EXIT.notSignedIn,
    );
  }
  let pair: TokenPair = stored ?? (await signInWithPassword(url, fromEnv!.id, fromEnv!.pw, env));
  let ephemeral = !stored;
  const anonymous = createApiClient(url, locale, async () => null);

  const refresh = async (): Promise<void> => {
    const result = await anonymous.PATCH('/auth', { body: { data: { type: 'Auth', attributes: pair } } });
    if (result.response.ok && result.data) {
      pair = bodyPair(result.data.data.attributes);
      if (!ephemeral) store.save(url, pair);
      return;
    }
    const failure = apiError(result.response.status, result.error);
    if (result.response.status !== 401) throw failure;
    if (!ephemeral) store.remove(url);
    if (!fromEnv) throw new CliError(`${failure.message}\nrun \`keiyaku login\` again`, EXIT.notSignedIn, failure.code);
    pair = await signInWithPassword(url, fromEnv.id, fromEnv.pw, env);
    ephemeral = true;
  };

  const client = createApiClient(
    url,
    locale,
    async () => {
      if (tokenExpired(pair.authorizationToken)) await refresh();
      return pair.authorizationToken;
    },
    async () => {
      await refresh();
      return pair.authorizationToken;
    },
  );
  return {
    url,
    locale,
    client,
    async close() {
      if (ephemeral) await client.DELETE('/auth').catch(() => undefined);
    },
  };
}

/** Runs `fn` with an open session and closes it afterwards, whatever happens. */
export async function withApi<T>(options: ConnectionOptions, fn: (session: ApiSession) => Promise<T>): Promise<T> {
  const session = await openSession(options);
  try {
    return await fn(session);
  } finally {
    await session.close();
  }
}
