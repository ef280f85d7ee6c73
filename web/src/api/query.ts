import { focusManager, MutationCache, QueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiError } from './errors.ts';

/** Network Information API, where the browser has it. */
function connection(): { effectiveType?: string; saveData?: boolean } | undefined {
  return (navigator as Navigator & { connection?: { effectiveType?: string; saveData?: boolean } }).connection;
}

/** Slow connections (2G/3G or data saver) wait longer between retries and before the slow-loading notice. */
export function isSlowConnection(): boolean {
  const info = connection();
  return Boolean(info?.saveData) || ['slow-2g', '2g', '3g'].includes(info?.effectiveType ?? '');
}

export const DEDUPE_MS = 2_000;
export const FOCUS_THROTTLE_MS = 5_000;
export const retryDelayMs = () => (isSlowConnection() ? 10_000 : 5_000);
export const slowLoadingAfterMs = () => (isSlowConnection() ? 5_000 : 3_000);

/** Retrying cannot help a refusal (4xx other than 429) or an ended session. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) return false;
  if (error instanceof Error && error.name === 'SessionEndedError') return false;
  return failureCount < 3;
}

/**
 * The spec's data-fetching defaults: retry, dedupe 2 s, retry every 5 s (10 s on slow connections). The home
 * screen's inbox sums up everything, so any successful change marks it stale: coming back home within the 2 s it
 * stays fresh must not show what was there before the change.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      onSuccess: () => void client.invalidateQueries({ queryKey: ['me', 'inbox'] }),
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        retryDelay: retryDelayMs,
        staleTime: DEDUPE_MS,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

/**
 * Window focus refetches at most once per 5 s. The handler re-evaluates the focus state (visible document) and
 * notifies: pinning it with `handleFocus(true)` would notify only the first time and count hidden tabs as focused.
 */
export function throttleFocusRefetch(now: () => number = Date.now): void {
  focusManager.setEventListener((handleFocus) => {
    let last = -Infinity;
    const onFocus = () => {
      if (document.visibilityState === 'hidden' || now() - last < FOCUS_THROTTLE_MS) return;
      last = now();
      handleFocus();
    };
    window.addEventListener('focus', onFocus);
    document.addEventListener('visibilitychange', onFocus);
    return () => {
      window.removeEventListener('focus', onFocus);
      document.removeEventListener('visibilitychange', onFocus);
    };
  });
}

/** True once something has been loading for 3 s (5 s on slow connections). */
export function useSlowLoading(loading: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!loading) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), slowLoadingAfterMs());
    return () => clearTimeout(timer);
  }, [loading]);
  return slow;
}
