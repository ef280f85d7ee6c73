// The QR screen's countdown: the time left until the QR code's expiresAt, as the member's clock sees it.

/** How long a QR code lives (the server's QR_VALIDITY_MINUTES); the countdown never shows more. */
export const QR_VALIDITY_MINUTES = 10;

/** Milliseconds left until `expiresAt` at `now`, between 0 and the QR code's validity (a clock ahead or behind). */
export function remainingMs(expiresAt: string, now: number): number {
  const left = Date.parse(expiresAt) - now;
  if (Number.isNaN(left)) return 0;
  return Math.min(Math.max(left, 0), QR_VALIDITY_MINUTES * 60_000);
}

/** `m:ss` of the time left, rounded up to the second so 0:00 means expired. */
export function formatRemaining(ms: number): string {
  const seconds = Math.ceil(Math.max(ms, 0) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
