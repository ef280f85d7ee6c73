/*
 * One HTTP attempt of a delivery: POST the payload to the endpoint, connecting only to an address the guard
 * checked (a custom `lookup` resolves, checks and hands the checked address to the socket, so a DNS answer that
 * changes between check and connect cannot redirect it: DNS rebinding), on a fresh connection, following no
 * redirect, within a total time budget, reading at most `maxResponseBytes` of the answer (then cutting it).
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { AddressBlockedError, type AddressPolicy, hostOf, resolveAllowed } from './address-guard.ts';

export type AttemptOutcome =
  'success' | 'http_error' | 'timeout' | 'refused' | 'too_large' | 'ssrf_blocked' | 'dns_failed' | 'network_error';

export interface AttemptResult {
  outcome: AttemptOutcome;
  statusCode: number | null;
  durationMs: number;
}

export interface SendOptions extends AddressPolicy {
  timeoutMs: number;
  maxResponseBytes: number;
}

class TimeoutError extends Error {
  readonly code = 'WEBHOOK_TIMEOUT';
}
class TooLargeError extends Error {
  readonly code = 'WEBHOOK_TOO_LARGE';
}

/** A lookup that resolves the host, refuses a forbidden answer, and gives the socket only checked addresses. */
function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    resolveAllowed(hostname, policy).then(
      (addresses) => {
        const wanted = addresses.filter((a) => !options.family || a.family === options.family);
        const usable = wanted.length > 0 ? wanted : addresses;
        if ((options as { all?: boolean }).all) {
          (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, usable);
        } else {
          callback(null, usable[0]!.address, usable[0]!.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

function outcomeOf(error: unknown): AttemptOutcome {
  if (error instanceof AddressBlockedError) return 'ssrf_blocked';
  if (error instanceof TimeoutError) return 'timeout';
  if (error instanceof TooLargeError) return 'too_large';
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns_failed';
  return 'network_error';
}

/** POSTs `body` with `headers` to `url`; never throws, tells how it went. */
export async function sendAttempt(
  url: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  let statusSeen: number | null = null;
  try {
    // An IP literal never reaches `lookup`: check it here.
    if (isIP(hostOf(target))) await resolveAllowed(hostOf(target), options);
    const statusCode = await new Promise<number>((resolve, reject) => {
      const client = target.protocol === 'https:' ? https : http;
      const request = client.request(
        target,
        {
          method: 'POST',
          agent: false,
          lookup: guardedLookup(options),
          headers: {
            'content-type': 'application/json',
            'content-length': String(Buffer.byteLength(body)),
            'user-agent': 'Keiyaku-Webhooks/1',
            ...headers,
          },
        },
        (response) => {
          statusSeen = response.statusCode ?? null;
          let received = 0;
          response.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > options.maxResponseBytes) request.destroy(new TooLargeError('response over the cap'));
          });
          response.on('end', () => resolve(response.statusCode ?? 0));
          response.on('error', reject);
        },
      );
      const timer = setTimeout(() => request.destroy(new TimeoutError('webhook timed out')), options.timeoutMs);
      request.on('error', reject);
      request.on('close', () => clearTimeout(timer));
      request.end(body);
    });
    const ok = statusCode >= 200 && statusCode < 300;
    return { outcome: ok ? 'success' : 'http_error', statusCode, durationMs: elapsed() };
  } catch (error) {
    return { outcome: outcomeOf(error), statusCode: statusSeen, durationMs: elapsed() };
  }
}
