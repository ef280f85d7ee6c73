// The query parameters of the guest screens, validated as the router hands them over (strings, web/src/router.tsx).

/** A query value as text: the router's parser turns "1" into the number 1 (and "true" into true) on the way in. */
function text(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * /onetime/auth: `token` from the mail link; `sent` when the code has already gone out (the QR page sent it);
 * `timeout` when an ended session sent the guest back; `signedOut` after sign-out.
 */
export interface OneTimeAuthSearch {
  token?: string;
  sent?: string;
  timeout?: string;
  signedOut?: string;
}

export function validateOneTimeAuthSearch(search: Record<string, unknown>): OneTimeAuthSearch {
  return {
    token: text(search.token),
    sent: text(search.sent),
    timeout: text(search.timeout),
    signedOut: text(search.signedOut),
  };
}
