/**
 * Shared fixtures of the workbench unit tests (never imported by the app): unsigned JWTs with chosen claims, a
 * Request that resolves relative URLs like a browser does, and a global fetch stub that records what it was sent.
 */
import type { TokenPair } from '../session/tokens.ts';

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** An unsigned JWT carrying the given claims (the workbench only reads claims; the server verifies). */
export function jwt(claims: Record<string, unknown>): string {
  return `${base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${base64url(JSON.stringify(claims))}.signature`;
}

/** A token pair whose access token expires at `exp` (seconds since the epoch). */
export function tokenPair(exp: number, name = 'a', uid: string | number = 42): TokenPair {
  return { authorizationToken: jwt({ exp, uid, name }), refreshToken: `refresh-${name}` };
}

/**
 * Node's Request refuses relative URLs; a browser resolves them against the page. The clients use the relative
 * base `/core/v1`, so tests install this before creating a client (openapi-fetch captures Request then).
 */
export class BrowserRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, window.location.href) : input, init);
  }
}

export interface Recorded {
  method: string;
  url: string;
  headers: Headers;
  signal: AbortSignal;
  body: unknown;
}

export type Answer = (request: Request) => Response | Promise<Response>;

/** A stand-in for global fetch: records each request (body parsed as JSON when present) and answers with `answer`. */
export function fetchRecorder(answer: Answer) {
  const requests: Recorded[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new BrowserRequest(input, init);
    const text = request.body ? await request.clone().text() : '';
    requests.push({
      method: request.method,
      url: new URL(request.url).pathname + new URL(request.url).search,
      headers: request.headers,
      signal: request.signal,
      body: text ? JSON.parse(text) : undefined,
    });
    return answer(request);
  };
  return { fetch, requests };
}

/** A JSON:API response. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** The error document the core API answers with. */
export function errorBody(status: number, code: string, extra: Record<string, unknown> = {}) {
  return {
    errors: [{ status: String(status), code, title: code, detail: `detail of ${code}`, traceId: 'trace-1', ...extra }],
  };
}
