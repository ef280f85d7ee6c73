/** The Web Locks name every tab of the workbench refreshes the signed-in session under. */
export const REFRESH_LOCK = 'keiyaku-refresh';
/**
 * How long a tab waits for another tab's refresh before refreshing itself. A refresh request has no timeout (the
 * spec's 0), so a tab stuck on a dead connection must not hold the others forever; the server's 30-second grace
 * window for a token sent twice covers the race that waiting no longer prevents.
 */
export const LOCK_WAIT_MS = 10_000;

/**
 * Runs `refresh` while holding the cross-tab refresh lock, so two tabs never send the same refresh token at once
 * (the server would see the second as reuse once the grace window has passed). Without Web Locks (an older
 * browser) or after {@link LOCK_WAIT_MS} of waiting, it runs unlocked.
 */
export async function acrossTabs<T>(
  refresh: () => Promise<T>,
  locks: LockManager | undefined = globalThis.navigator?.locks,
): Promise<T> {
  if (!locks) return refresh();
  let granted = false;
  const waiting = new AbortController();
  const timer = setTimeout(() => waiting.abort(), LOCK_WAIT_MS);
  try {
    return await locks.request(REFRESH_LOCK, { signal: waiting.signal }, () => {
      granted = true;
      clearTimeout(timer);
      return refresh();
    });
  } catch (error) {
    if (granted) throw error;
    return refresh();
  } finally {
    clearTimeout(timer);
  }
}
