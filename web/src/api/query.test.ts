import { focusManager, onlineManager, QueryObserver } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionEndedError } from '../session/guard.ts';
import { ApiError } from './errors.ts';
import {
  createQueryClient,
  DEDUPE_MS,
  FOCUS_THROTTLE_MS,
  isSlowConnection,
  retryDelayMs,
  shouldRetry,
  slowLoadingAfterMs,
  throttleFocusRefetch,
  useSlowLoading,
} from './query.ts';

/** Stubs the Network Information API (`navigator.connection`), or removes it. */
function connection(info: { effectiveType?: string; saveData?: boolean } | undefined) {
  Object.defineProperty(navigator, 'connection', { value: info, configurable: true });
}

const serverError = () => new ApiError(500, [], 'INTERNAL_ERROR');
const networkError = () => new ApiError(0, [], 'NETWORK_ERROR');
const refusal = (status: number) => new ApiError(status, []);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date('2026-04-01T09:00:00Z'));
});

afterEach(() => {
  vi.useRealTimers();
  connection(undefined);
  focusManager.setEventListener((handleFocus) => {
    const listener = () => handleFocus();
    window.addEventListener('visibilitychange', listener);
    return () => window.removeEventListener('visibilitychange', listener);
  });
  focusManager.setFocused(undefined);
  onlineManager.setOnline(true);
});

describe('retry policy', () => {
  it('retries 5xx and network failures up to 3 times', () => {
    for (const error of [serverError(), networkError(), new ApiError(503, []), new TypeError('x')]) {
      expect([0, 1, 2, 3].map((count) => shouldRetry(count, error))).toEqual([true, true, true, false]);
    }
  });

  it('does not retry a 4xx refusal, except 429', () => {
    for (const status of [400, 401, 403, 404, 409, 422]) expect(shouldRetry(0, refusal(status))).toBe(false);
    expect(shouldRetry(0, refusal(429))).toBe(true);
  });

  it('does not retry an ended session', () => {
    expect(shouldRetry(0, new SessionEndedError('timeout'))).toBe(false);
    expect(shouldRetry(0, new SessionEndedError('refresh-failed'))).toBe(false);
  });

  it('a query failing with 5xx is tried 4 times in all, 5 s apart, then fails', async () => {
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(serverError()));
    const result = client.fetchQuery({ queryKey: ['failing'], queryFn }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(queryFn).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(queryFn).toHaveBeenCalledTimes(4);
    expect(await result).toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('a query refused with 4xx or ended by the session fails at once', async () => {
    const client = createQueryClient();
    for (const error of [refusal(404), new SessionEndedError('no-token')]) {
      const queryFn = vi.fn(() => Promise.reject(error));
      const result = client.fetchQuery({ queryKey: ['refused', error.message], queryFn }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(60_000);
      expect(queryFn).toHaveBeenCalledTimes(1);
      expect(await result).toBe(error);
    }
  });

  it('mutations are not retried', async () => {
    const client = createQueryClient();
    expect(client.getDefaultOptions().mutations?.retry).toBe(false);
  });
});

describe('retry interval', () => {
  it('is 5 s on an ordinary connection', () => {
    expect(isSlowConnection()).toBe(false);
    expect(retryDelayMs()).toBe(5_000);
    connection({ effectiveType: '4g', saveData: false });
    expect(retryDelayMs()).toBe(5_000);
  });

  it.each([
    [{ effectiveType: '3g' }],
    [{ effectiveType: '2g' }],
    [{ effectiveType: 'slow-2g' }],
    [{ effectiveType: '4g', saveData: true }],
  ])('is 10 s on a slow connection %j', (info) => {
    connection(info);
    expect(isSlowConnection()).toBe(true);
    expect(retryDelayMs()).toBe(10_000);
  });

  it('a failing query on a 3G connection retries after 10 s', async () => {
    connection({ effectiveType: '3g' });
    const client = createQueryClient();
    const queryFn = vi.fn(() => Promise.reject(networkError()));
    void client.fetchQuery({ queryKey: ['slow'], queryFn }).catch(() => undefined);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(queryFn).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queryFn).toHaveBeenCalledTimes(2);
  });
});

describe('dedupe', () => {
  it('is 2 s: the same query asked again within 2 s is not fetched again', async () => {
    expect(DEDUPE_MS).toBe(2_000);
    const client = createQueryClient();
    expect(client.getDefaultOptions().queries?.staleTime).toBe(2_000);
    const queryFn = vi.fn(async () => 'data');
    await client.fetchQuery({ queryKey: ['me'], queryFn });
    await Promise.all([
      client.fetchQuery({ queryKey: ['me'], queryFn }),
      client.fetchQuery({ queryKey: ['me'], queryFn }),
    ]);
    vi.advanceTimersByTime(1_999);
    await client.fetchQuery({ queryKey: ['me'], queryFn });
    expect(queryFn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await client.fetchQuery({ queryKey: ['me'], queryFn });
    expect(queryFn).toHaveBeenCalledTimes(2);
  });
});

describe('window-focus refetch', () => {
  /** An observed query with data, fetched at the current (fake) time. */
  async function observed() {
    const client = createQueryClient();
    client.mount();
    const queryFn = vi.fn(async () => 'data');
    const observer = new QueryObserver(client, { queryKey: ['focus'], queryFn });
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    return {
      queryFn,
      done: () => {
        unsubscribe();
        client.unmount();
      },
    };
  }

  const focus = async () => {
    window.dispatchEvent(new Event('focus'));
    await vi.advanceTimersByTimeAsync(0);
  };

  it('is on, and throttled to once per 5 s', async () => {
    expect(FOCUS_THROTTLE_MS).toBe(5_000);
    expect(createQueryClient().getDefaultOptions().queries?.refetchOnWindowFocus).toBe(true);
    throttleFocusRefetch(() => Date.now());
    const { queryFn, done } = await observed();

    await vi.advanceTimersByTimeAsync(6_000);
    await focus(); // stale, first focus: refetches
    expect(queryFn).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(3_000);
    await focus(); // stale again, but only 3 s after the last focus refetch
    expect(queryFn).toHaveBeenCalledTimes(2);

    await vi.advanceTimersByTimeAsync(2_000);
    await focus(); // 5 s after the last one: refetches
    expect(queryFn).toHaveBeenCalledTimes(3);

    await vi.advanceTimersByTimeAsync(60_000);
    await focus(); // and keeps doing so on every later focus
    expect(queryFn).toHaveBeenCalledTimes(4);
    done();
  });

  it('counts a tab becoming visible as focus, under the same throttle', async () => {
    throttleFocusRefetch(() => Date.now());
    const { queryFn, done } = await observed();
    await vi.advanceTimersByTimeAsync(6_000);
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(2);
    await focus(); // the focus event that follows at once is throttled
    expect(queryFn).toHaveBeenCalledTimes(2);
    done();
  });

  it('does not refetch while the document is hidden, nor let hiding use up the throttle', async () => {
    throttleFocusRefetch(() => Date.now());
    const { queryFn, done } = await observed();
    await vi.advanceTimersByTimeAsync(6_000);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(1);
    expect(focusManager.isFocused()).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    visibility.mockReturnValue('visible');
    document.dispatchEvent(new Event('visibilitychange'));
    await vi.advanceTimersByTimeAsync(0);
    expect(queryFn).toHaveBeenCalledTimes(2);
    visibility.mockRestore();
    done();
  });

  it('does not refetch fresh data (younger than 2 s) on focus', async () => {
    throttleFocusRefetch(() => Date.now());
    const { queryFn, done } = await observed();
    await vi.advanceTimersByTimeAsync(1_000);
    await focus();
    expect(queryFn).toHaveBeenCalledTimes(1);
    done();
  });
});

describe('useSlowLoading', () => {
  it('turns true after 3 s of loading', () => {
    expect(slowLoadingAfterMs()).toBe(3_000);
    const { result } = renderHook(({ loading }) => useSlowLoading(loading), { initialProps: { loading: true } });
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(2_999));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('turns true after 5 s on a slow connection', () => {
    connection({ effectiveType: '3g' });
    expect(slowLoadingAfterMs()).toBe(5_000);
    const { result } = renderHook(() => useSlowLoading(true));
    act(() => vi.advanceTimersByTime(4_999));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('turns true after 5 s with data saver on', () => {
    connection({ effectiveType: '4g', saveData: true });
    const { result } = renderHook(() => useSlowLoading(true));
    act(() => vi.advanceTimersByTime(4_999));
    expect(result.current).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toBe(true);
  });

  it('stays false when loading ends in time, and resets when loading ends', () => {
    const { result, rerender } = renderHook(({ loading }) => useSlowLoading(loading), {
      initialProps: { loading: true },
    });
    act(() => vi.advanceTimersByTime(2_000));
    rerender({ loading: false });
    act(() => vi.advanceTimersByTime(10_000));
    expect(result.current).toBe(false);

    rerender({ loading: true });
    act(() => vi.advanceTimersByTime(3_000));
    expect(result.current).toBe(true);
    rerender({ loading: false });
    expect(result.current).toBe(false);
  });

  it('never turns true while not loading', () => {
    const { result } = renderHook(() => useSlowLoading(false));
    act(() => vi.advanceTimersByTime(60_000));
    expect(result.current).toBe(false);
  });
});

describe('the inbox after a change', () => {
  it('is stale after any successful change, so coming back home within 2 s fetches it again', async () => {
    const client = createQueryClient();
    const inbox = vi.fn(async () => ({ drafts: 0 }));
    await client.fetchQuery({ queryKey: ['me', 'inbox'], queryFn: inbox });
    expect(client.getQueryState(['me', 'inbox'])?.isInvalidated).toBe(false);
    await client
      .getMutationCache()
      .build(client, { mutationFn: () => Promise.reject(networkError()) })
      .execute(undefined)
      .catch(() => undefined);
    expect(client.getQueryState(['me', 'inbox'])?.isInvalidated).toBe(false);
    await client
      .getMutationCache()
      .build(client, { mutationFn: async () => 'created' })
      .execute(undefined);
    expect(client.getQueryState(['me', 'inbox'])?.isInvalidated).toBe(true);
    await client.fetchQuery({ queryKey: ['me', 'inbox'], queryFn: inbox, staleTime: 2_000 });
    expect(inbox).toHaveBeenCalledTimes(2);
  });
});
